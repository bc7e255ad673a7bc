// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "TripLedger",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "trip", targets: ["trip"]),
        .library(name: "TripCore", targets: ["TripCore"]),
        .library(name: "TripLedger", targets: ["TripLedger"]),
        .library(name: "RateService", targets: ["RateService"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        // System SQLite (libsqlite3-dev). Only `Storage/SQLite/SQLiteBoundary.swift` imports it.
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        // libcurl headers plus a dlopen shim, so that only network commands load libcurl.
        .target(name: "CCurl", path: "Sources/CCurl"),
        // libpq headers plus a dlopen shim, so that only the sharing commands load libpq.
        .target(name: "CLibPQ", path: "Sources/CLibPQ"),
        // The shipped data: migrations, config defaults and the ISO 4217 table, compiled in.
        .target(
            name: "Embedded",
            path: ".",
            exclude: [
                "Sources/CSQLite", "Sources/CCurl", "Sources/CLibPQ", "Sources/RemoteSync", "Sources/TripCore", "Sources/TripModel",
                "Sources/Rendering", "Sources/TripLedger", "Sources/Storage", "Sources/Exchange", "Sources/SyncRules",
                "Sources/RateService", "Sources/RateSync", "Sources/trip", "Sources/TripBench", "Tests", ".ci", "README.md",
                "Makefile", "docs",
            ],
            sources: ["Sources/Embedded"],
            resources: [.embedInCode("Migrations"), .embedInCode("config")]
        ),
        .target(name: "TripCore", dependencies: ["Embedded"]),
        // The report model: the values the ledger reads and reports (trips, purchases, members,
        // reports, balances) and the renderers show. Plain values, no storage.
        .target(name: "TripModel", dependencies: ["TripCore"]),
        // Text, JSON, CSV, Markdown, HTML and the ledger and Beancount journals of the report model.
        // It cannot import the ledger, so the compiler keeps rendering from reading storage.
        // Cross-module optimisation lets the ledger specialise `PurchaseStream`'s generic writers
        // for its own rows (`make bench`: `trip list --format json` of a split trip).
        .target(
            name: "Rendering", dependencies: ["TripCore", "TripModel"],
            swiftSettings: [.unsafeFlags(["-cross-module-optimization"])]),
        // The ledger's storage: the SQLite wrapper, the stores (the only code that sees the database),
        // the local sync tables and the sync wire format. The only target that imports CSQLite.
        .target(name: "Storage", dependencies: ["TripCore", "TripModel", "Rendering", "CSQLite", "Embedded"]),
        // The ledger: trips, purchases, refunds, the trash, backups, groups, rates, reports, the demo.
        .target(name: "TripLedger", dependencies: ["TripCore", "TripModel", "Rendering", "Storage"]),
        // Files in and out: CSV import and export, journals, card statements, the bulk import path.
        // BulkImport/README.md documents the code beside it; it is not a resource.
        .target(
            name: "Exchange", dependencies: ["TripCore", "TripModel", "Rendering", "Storage", "TripLedger"],
            exclude: ["BulkImport/README.md"]),
        // A shared trip's sync on this device: share, join, push, pull, conflicts; the rules every
        // device applies alike, over the local sync tables and the wire format (Storage).
        .target(name: "SyncRules", dependencies: ["TripCore", "TripModel", "Storage", "TripLedger"]),
        // HTTP over libcurl and the rate providers' response parsers. Independent of the ledger.
        .target(name: "RateService", dependencies: ["CCurl", "TripCore"]),
        // `trip rates sync`: plans requests from the ledger's needs, stores validated batches, re-rates.
        .target(name: "RateSync", dependencies: ["TripCore", "TripModel", "TripLedger", "RateService"]),
        // The device's PostgreSQL client (libpq) and the orchestrator of a sync: `trip remote`, `share`,
        // `unshare`, `join` and `sync`'s steps against the server's schema and change log. The local
        // rules are SyncRules', the wire format Storage's (Storage/SyncWire); it cannot import the
        // output module.
        .target(name: "RemoteSync", dependencies: ["CLibPQ", "TripCore", "TripModel", "Storage", "TripLedger", "SyncRules"]),
        .executableTarget(
            name: "trip",
            dependencies: [
                "TripCore", "TripModel", "Rendering", "Storage", "TripLedger", "Exchange", "SyncRules", "RateService", "RateSync",
                "RemoteSync",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "TripBench",
            dependencies: [
                "TripCore", "TripModel", "Rendering", "Storage", "TripLedger", "Exchange", "SyncRules", "RateSync", "RateService",
                "FXTestServer",
            ]),
        .target(
            name: "TestSupport", dependencies: ["TripCore", "TripModel", "Rendering", "Storage", "TripLedger", "Exchange", "SyncRules"],
            path: "Tests/TestSupport"),
        .testTarget(name: "TripCoreTests", dependencies: ["TripCore", "TestSupport"]),
        .testTarget(
            name: "TripLedgerTests",
            dependencies: ["TripModel", "Rendering", "Storage", "TripLedger", "Exchange", "SyncRules", "TestSupport"]),
        // A real HTTP/1.1 server on loopback that serves recorded provider bodies and injects faults.
        .target(name: "FXTestServer", path: "Tests/FXTestServer"),
        .testTarget(
            name: "RateServiceTests", dependencies: ["RateService", "TripCore", "FXTestServer", "TestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "RateSyncTests", dependencies: ["RateSync", "TestSupport", "FXTestServer"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "EndToEndTests", dependencies: ["TestSupport", "FXTestServer", "trip"],
            resources: [.copy("Fixtures")]),
    ]
)

// Strict compiler for our own targets: Swift 6 mode plus the upcoming features we hold ourselves to.
for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    target.swiftSettings = settings
}
