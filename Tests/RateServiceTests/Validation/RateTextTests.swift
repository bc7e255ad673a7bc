import Testing

@testable import RateService

struct RateTextTests {
    @Test(arguments: [
        "1", "1.0789", "0.84328", "17549", "0.000001", "139.50", "1234567890.12345678901234567890", "9999999999",
        "0.0000000001",
    ])
    func acceptsPlainPositiveDecimals(text: String) {
        #expect(RateText.problem(with: text) == nil)
    }

    @Test(arguments: [
        ("0", "zero"), ("0.000", "zero"), ("-1", "not a plain positive decimal"), ("+1", "not a plain positive decimal"),
        ("1e308", "not a plain positive decimal"), ("1E-5", "not a plain positive decimal"),
        ("NaN", "not a plain positive decimal"),
        ("Infinity", "not a plain positive decimal"), ("inf", "not a plain positive decimal"), ("", "not a plain decimal"),
        (".5", "not a plain decimal"), ("1.", "not a plain decimal"), ("1.2.3", "not a plain decimal"), ("01.5", "leading zero"),
        ("00", "leading zero"), ("123456789012345678901", "too many digits"), ("1.123456789012345678901", "too many digits"),
        ("10000000000", "out of range (at least 1e10)"), ("12345678901234567890", "out of range (at least 1e10)"),
        ("0.00000000009", "out of range (below 1e-10)"), ("0.000000000000000000001", "too many digits"),
        ("12345678901234567890.12345678901", "too many digits"),
        (" 1.0", "not a plain positive decimal"), ("1,5", "not a plain positive decimal"), ("١", "not a plain positive decimal"),
    ])
    func rejects(text: String, problem: String) {
        #expect(RateText.problem(with: text) == problem)
    }
}
