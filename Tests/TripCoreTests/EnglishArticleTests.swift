import Testing
import TripCore

/// `read as an American Express statement`: the article is chosen by how the name is said.
@Suite("English article before a name")
struct EnglishArticleTests {
    @Test(arguments: [
        ("American Express", "an"), ("N26", "an"), ("ING", "an"), ("HSBC", "an"), ("Revolut", "a"), ("Revolut (2018-2019)", "a"),
        ("DKB Visa", "a"), ("PayPal", "a"), ("bunq", "a"), ("comdirect", "a"), ("Wise (transaction history)", "a"),
        ("Unicredit", "a"), ("Eurocard", "a"), ("Umpqua", "an"), ("Orange Bank", "an"), ("USAA", "a"), ("inferred", "an"),
    ])
    func articleBefore(_ name: String, _ article: String) {
        #expect(EnglishArticle.indefinite(before: name) == article)
    }
}
