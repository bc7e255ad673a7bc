import Foundation

/// Whether a test that needs something this machine may lack (a network namespace, a tool) should
/// run. Elsewhere a missing prerequisite skips the test with one line saying what is missing; in
/// CI (`CI=true`) the test runs anyway, so that its own checks fail and say why: a guarantee's
/// proof never silently stops running there.
public func prerequisite(_ available: Bool, _ what: String) -> Bool {
    if available || ProcessInfo.processInfo.environment["CI"] == "true" { return true }
    print("skipped: \(what)")
    return false
}
