/// How a slash date such as `3/5` is read: the `date_order` setting.
///
/// Without a setting, every slash date is refused with its readings and the ISO dates to type
/// instead: `3/5` could be either, and even `13/5` is refused, so that typing day/month out of
/// habit is not read the other way round on the 1st to the 12th.
public enum DateOrder: String, Sendable, CaseIterable {
    /// `3/5` is 3 May; `3/5/2026` too.
    case dmy
    /// `3/5` is 5 March; `3/5/2026` too.
    case mdy
    /// `3/5` is 5 March (the year left out at the front); `2026/3/5` too.
    case ymd
}
