/// The result columns of one statement, or the target columns of one INSERT, declared once and in
/// order: a case's position (its raw value) is the column's index, its `sql` the column's text in
/// the statement.
///
/// The statement's column list is built from the same cases (`sqlList`), and rows are read by case
/// (`row.int(.total)`), so no index or count is written by hand and a column added to the list
/// cannot shift another one's reads. The index is known at compile time: a read costs what a read
/// by position costs. `sql` is a `StaticString`, so a list is our own constant text (see
/// `SQLHygieneTests`).
package protocol ColumnList: CaseIterable, RawRepresentable where RawValue == Int32, AllCases == [Self] {
    /// A column name or an expression over the statement's tables, as it stands in the statement.
    var sql: StaticString { get }
    /// What stands before `sql` in the statement's list: a table's alias and its dot (`p.`), or nothing.
    var qualifier: StaticString { get }
}

extension ColumnList {
    package var qualifier: StaticString { "" }
    /// Every column's `sql` after its `qualifier`, comma-separated, in order: a SELECT list or an
    /// INSERT's column list.
    static var sqlList: String { allCases.map { "\($0.qualifier)\($0.sql)" }.joined(separator: ", ") }
    /// One `?` per column, comma-separated: an INSERT's VALUES.
    static var placeholders: String { Array(repeating: "?", count: allCases.count).joined(separator: ", ") }
    /// `column = ?` per column, comma-separated: an UPDATE's SET.
    static var assignments: String { allCases.map { "\($0.sql) = ?" }.joined(separator: ", ") }
    /// The number of columns.
    package static var count: Int32 { Int32(allCases.count) }
}

/// The statement's current row, read by the names of `C`, whose columns start at column `base`
/// (the statement's own columns before them, a constant such as `Purchase.Column.count`).
///
/// Valid until the statement steps again, like the statement's own accessors.
package struct ResultRow<C: ColumnList> {
    let statement: Statement
    package let base: Int32

    init(_ statement: Statement, base: Int32 = 0) {
        self.statement = statement
        self.base = base
    }

    package func int(_ c: C) -> Int64 { statement.int(base + c.rawValue) }
    package func optionalInt(_ c: C) -> Int64? { statement.optionalInt(base + c.rawValue) }
    package func text(_ c: C) -> String { statement.text(base + c.rawValue) }
    package func optionalText(_ c: C) -> String? { statement.optionalText(base + c.rawValue) }
    package func isNull(_ c: C) -> Bool { statement.isNull(base + c.rawValue) }
    /// The text of the `offset`th column after `C`'s (the statement's own columns past the list), or nil.
    package func optionalText(after offset: Int) -> String? { statement.optionalText(base + C.count + Int32(offset)) }
    /// Column `c`'s text as bytes, valid only inside `body` (until the next step).
    package func withBytes<T>(_ c: C, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        try statement.withBytes(base + c.rawValue, body)
    }
}

extension Statement {
    /// The current row, read by the names of `C` (the statement's columns from the first on).
    package func row<C: ColumnList>(_: C.Type = C.self) -> ResultRow<C> { ResultRow(self) }
}

/// A column declared as a value (a row of a table of columns) rather than as an enum case.
protocol DeclaredColumn {
    /// The column's name, as the table has it.
    var name: StaticString { get }
}

/// The target columns of one INSERT or UPDATE, taken from a declared table of columns
/// (`PurchaseColumns`): joined as a `ColumnList`'s are, from the same `StaticString`s.
protocol ColumnTable {
    associatedtype Column: DeclaredColumn
    static var targets: [Column] { get }
}

extension ColumnTable {
    /// Every column's name, comma-separated, in order: an INSERT's column list.
    static var sqlList: String { targets.map { $0.name.description }.joined(separator: ", ") }
    /// One `?` per column, comma-separated: an INSERT's VALUES.
    static var placeholders: String { Array(repeating: "?", count: targets.count).joined(separator: ", ") }
    /// `column = ?` per column, comma-separated: an UPDATE's SET.
    static var assignments: String { targets.map { "\($0.name) = ?" }.joined(separator: ", ") }
}
