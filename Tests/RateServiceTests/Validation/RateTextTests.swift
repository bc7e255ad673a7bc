import Testing

@testable import RateService

struct RateTextTests {
    @Test(arguments: ["1", "1.0789", "0.84328", "17549", "0.000001", "139.50", "12345678901234567890.1234567890"])
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
        ("12345678901234567890.12345678901", "too many digits"),
        (" 1.0", "not a plain positive decimal"), ("1,5", "not a plain positive decimal"), ("١", "not a plain positive decimal"),
    ])
    func rejects(text: String, problem: String) {
        #expect(RateText.problem(with: text) == problem)
    }
}
