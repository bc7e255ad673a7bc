import Testing
import TripCore

@testable import RateService

struct RedactionTests {
    @Test(arguments: [
        ("https://user:pa55@api.example.com/v1/latest", "https://***@api.example.com/v1/latest"),
        ("https://api.example.com/latest?apikey=abc123&base=EUR", "https://api.example.com/latest?apikey=***&base=EUR"),
        (
            "https://x.example/?api_key=1&key=2&access_key=3&token=4&APIKEY=5",
            "https://x.example/?api_key=***&key=***&access_key=***&token=***&APIKEY=***"
        ),
        (
            "https://x.example/?access_token=a&client_secret=b&symbols=USD#frag",
            "https://x.example/?access_token=***&client_secret=***&symbols=USD#frag"
        ),
        ("https://api.frankfurter.dev/v1/latest?symbols=USD,GBP", "https://api.frankfurter.dev/v1/latest?symbols=USD,GBP"),
        ("http://u@127.0.0.1:8080/p?keyboard=1", "http://***@127.0.0.1:8080/p?keyboard=1"),
    ])
    func masksCredentials(url: String, masked: String) {
        #expect(Redaction.mask(url: url) == masked)
    }

    @Test func errorsNeverCarryTheSecret() {
        let error = FetchError.insecureURL(url: Redaction.mask(url: "http://me:s3cret@rates.example/?token=t0ken"))
        #expect(!error.description.contains("s3cret") && !error.description.contains("t0ken"))
        #expect(Redaction.hostDescription(of: "https://me:s3cret@rates.example:8443/x") == "rates.example:8443")
    }

    @Test func insecureURLMessageIsMaskedEndToEnd() {
        let client = HTTPClient.test()
        let error = fetchError { () throws(FetchError) in try client.get(url: "http://me:s3cret@rates.example/x?apikey=K3Y") }
        #expect(
            error?.description
                == "Refused http://***@rates.example/x?apikey=***: plain http is only allowed to loopback hosts; use https.")
    }
}
