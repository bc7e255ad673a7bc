import Foundation

/// Whether a test that needs something this machine may lack (a network namespace, a tool) can
/// run. In CI (`CI=true`) a missing prerequisite is a failure, so that a guarantee's proof never
/// silently stops running; elsewhere the test is skipped and one line says what is missing.
/// Returns whether to go on.
public func prerequisite(_ available: Bool, _ what: String) -> Bool {
    if available { return true }
    if ProcessInfo.processInfo.environment["CI"] == "true" {
        preconditionFailure("missing in CI: \(what)")
    }
    print("skipped: \(what)")
    return false
}
