import CCurl
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

extension RedactionTests {
    @Test func environmentSecretsAreTheCredentialLookingVariables() {
        let env = [
            "TRIP_OPENERAPI_KEY": "k-123456", "FIXER_ACCESS_KEY": "fx-abcdef", "OXR_APP_ID": "oxr-9999", "GH_TOKEN": "ghp_x1",
            "DB_PASSWORD": "pw-pw-pw", "SOME_SECRET": "s3cr3t!", "HOME": "/home/me", "TRIP_RATES_URL": "https://x.example",
            "KEYBOARD": "us",
        ]
        #expect(
            Set(Redaction.secrets(inEnvironment: env))
                == ["k-123456", "fx-abcdef", "oxr-9999", "ghp_x1", "pw-pw-pw", "s3cr3t!"])
    }

    @Test func scrubReplacesEveryOccurrenceLongestFirstAndIgnoresTinyValues() {
        #expect(Redaction.scrub("a/KEY123/b?x=KEY123", secrets: ["KEY123"]) == "a/***/b?x=***")
        #expect(Redaction.scrub("abcdefgh", secrets: ["abcd", "abcdefgh"]) == "***")
        #expect(Redaction.scrub("a b c", secrets: ["a", "", "ab"]) == "a b c", "too short to be a secret")
    }

    @Test func secretsOfAURLIncludeDecodedForms() {
        let secrets = Redaction.secrets(in: "https://al%40ice:p%2Fss@x.example/p?api_key=k%3D1&base=EUR#f")
        #expect(Set(secrets) == ["al%40ice", "p%2Fss", "k%3D1", "al@ice", "p/ss", "k=1"])
    }

    @Test(arguments: [
        FetchError.noNetwork(host: "h", detail: "Could not resolve host: SECRETKEY.example"),
        .tls(host: "h", detail: "cert for SECRETKEY"), .httpStatus(url: "u/SECRETKEY", status: 401, message: "bad key SECRETKEY"),
        .malformedBody(url: "u", reason: "SECRETKEY"),
        .redirectRefused(from: "u", to: "http://e/SECRETKEY", reason: .insecureTarget),
        .transferFailed(url: "u", detail: "SECRETKEY"), .invalidURL(url: "u/SECRETKEY", reason: "r"),
        .timeout(url: "u/SECRETKEY", phase: .total, limit: .seconds(1)),
        .tooSlow(url: "u/SECRETKEY", minimumBytesPerSecond: 100, window: .seconds(10)),
    ])
    func scrubbingReachesEveryTextOfAnError(error: FetchError) {
        #expect(error.description.contains("SECRETKEY"), "the case carries the secret before scrubbing")
        let scrubbed = error.scrubbing(["SECRETKEY"])
        #expect(!scrubbed.description.contains("SECRETKEY"))
        #expect(scrubbed.description.contains("***"))
    }

    @Test func libcurlsOwnTextIsScrubbedOfTheRequestCredentials() {
        let request = CurlRequest(
            url: "https://bob:hunter22@rates.example/x?apikey=K3Y-K3Y", headerLines: [], userAgent: "t",
            connectTimeoutMilliseconds: 1000, totalTimeoutMilliseconds: 2000, maxBodyBytes: 1)
        let error = CurlBoundary.mapFailure(
            code: CURLE_GOT_NOTHING, detail: "Empty reply from https://bob:hunter22@rates.example/x?apikey=K3Y-K3Y",
            osErrno: 0, connected: true, bodyOverflowed: false, request: request)
        for secret in ["hunter22", "K3Y-K3Y", "bob"] { #expect(!error.description.contains(secret), "\(error)") }
    }
}
