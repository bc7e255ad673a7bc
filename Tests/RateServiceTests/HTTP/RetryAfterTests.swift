import Testing
import TripCore

@testable import RateService

struct RetryAfterTests {
    @Test(
        arguments: [
            ("120", nil, 120), ("0", nil, 0), (" 5", nil, 5),
            ("Wed, 21 Oct 2015 07:28:10 GMT", "Wed, 21 Oct 2015 07:28:00 GMT", 10),
            ("Wed, 21 Oct 2015 07:28:00 GMT", "Wed, 21 Oct 2015 07:29:00 GMT", 0),
        ] as [(String, String?, Int)])
    func parses(value: String, date: String?, seconds: Int) {
        #expect(RetryAfter.seconds(value, responseDate: date) == seconds)
    }

    @Test(arguments: ["", "soon", "-5", "1.5", "Wed, 21 Oct 2015 07:28:10 GMT"])
    func unusable(value: String) {
        #expect(RetryAfter.seconds(value, responseDate: nil) == nil)
    }

    @Test func httpDate() {
        #expect(HTTPDate.unixSeconds("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.unixSeconds("Sunday, 06-Nov-94 08:49:37 GMT") == nil)
    }
}
