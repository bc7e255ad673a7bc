/// The files shipped inside the binary: `Migrations/*.sql` and `config/*`, compiled in by
/// SwiftPM's `.embedInCode`, so that no file is looked up at run time.
public enum Embedded {
    /// Every migration, in the order it is applied. A new `Migrations/mNNNN_name.sql` must be
    /// added here; `MigrationTests.everyMigrationFileIsRegisteredInOrder` fails when one is missing.
    public static let migrations: [(name: String, sql: [UInt8])] = [
        ("m0001_init", PackageResources.m0001_init_sql),
        ("m0002_rates", PackageResources.m0002_rates_sql),
        ("m0003_import", PackageResources.m0003_import_sql),
        ("m0004_rate_source_check", PackageResources.m0004_rate_source_check_sql),
        ("m0005_explicit_fields_and_trip_presets", PackageResources.m0005_explicit_fields_and_trip_presets_sql),
        ("m0006_trash", PackageResources.m0006_trash_sql),
        ("m0007_refunds", PackageResources.m0007_refunds_sql),
        ("m0010_members", PackageResources.m0010_members_sql),
        ("m0011_sharing", PackageResources.m0011_sharing_sql),
        ("m0012_closed_elsewhere", PackageResources.m0012_closed_elsewhere_sql),
        ("m0013_manual_rate_versions", PackageResources.m0013_manual_rate_versions_sql),
        ("m0014_keep_removed_members", PackageResources.m0014_keep_removed_members_sql),
        ("m0015_index_waiting_removals", PackageResources.m0015_index_waiting_removals_sql),
        ("m0016_conflicts_travel", PackageResources.m0016_conflicts_travel_sql),
        ("m0017_split_rest", PackageResources.m0017_split_rest_sql),
        ("m0018_log_versions", PackageResources.m0018_log_versions_sql),
        ("m0019_set_aside_changes", PackageResources.m0019_set_aside_changes_sql),
        ("m0020_server_identity_and_partial_joins", PackageResources.m0020_server_identity_and_partial_joins_sql),
        ("m0021_device_roles", PackageResources.m0021_device_roles_sql),
        ("m0022_rates_scoped_to_trips", PackageResources.m0022_rates_scoped_to_trips_sql),
        ("m0023_charged_amount_source", PackageResources.m0023_charged_amount_source_sql),
        ("m0024_one_clock_tick", PackageResources.m0024_one_clock_tick_sql),
        ("m0025_unknown_wire_fields", PackageResources.m0025_unknown_wire_fields_sql),
    ]

    /// `config/settings.toml`: the default settings.
    public static var settings: [UInt8] { PackageResources.settings_toml }
    /// `config/presets.toml`: tax, service and tip presets.
    public static var presets: [UInt8] { PackageResources.presets_toml }
    /// `config/fallback_rates.toml`: the fixed fallback rate table, per 1 EUR.
    public static var fallbackRates: [UInt8] { PackageResources.fallback_rates_toml }
    /// `config/iso4217.csv`: active ISO 4217 codes with their minor units.
    public static var iso4217: [UInt8] { PackageResources.iso4217_csv }
    /// `config/iso4217_retired.csv`: euro-replaced codes still needed for irrevocable rates.
    public static var iso4217Retired: [UInt8] { PackageResources.iso4217_retired_csv }
    /// `config/profile-NAME.toml`: the card statement layouts `trip import` recognises, by name.
    /// A new profile file must be added here.
    public static var statementProfiles: [(name: String, text: [UInt8])] {
        [
            ("revolut", PackageResources.profile_revolut_toml),
            ("revolut-2018", PackageResources.profile_revolut_2018_toml),
            ("wise", PackageResources.profile_wise_toml),
            ("monzo", PackageResources.profile_monzo_toml),
            ("n26", PackageResources.profile_n26_toml),
            ("n26-2024", PackageResources.profile_n26_2024_toml),
            ("n26-de", PackageResources.profile_n26_de_toml),
            ("amex", PackageResources.profile_amex_toml),
            ("amex-activity", PackageResources.profile_amex_activity_toml),
            ("dkb", PackageResources.profile_dkb_toml),
            ("dkb-2023", PackageResources.profile_dkb_2023_toml),
            ("chase", PackageResources.profile_chase_toml),
            ("capital-one", PackageResources.profile_capital_one_toml),
            ("discover", PackageResources.profile_discover_toml),
            ("starling", PackageResources.profile_starling_toml),
            ("citi", PackageResources.profile_citi_toml),
            ("ing-de", PackageResources.profile_ing_de_toml),
            ("ing-nl", PackageResources.profile_ing_nl_toml),
            ("sparkasse", PackageResources.profile_sparkasse_toml),
            ("lloyds", PackageResources.profile_lloyds_toml),
            ("paypal", PackageResources.profile_paypal_toml),
            ("paypal-de", PackageResources.profile_paypal_de_toml),
            ("wise-history", PackageResources.profile_wise_history_toml),
            ("bunq", PackageResources.profile_bunq_toml),
            ("comdirect", PackageResources.profile_comdirect_toml),
            ("comdirect-visa", PackageResources.profile_comdirect_visa_toml),
            ("curve", PackageResources.profile_curve_toml),
            ("revolut-business", PackageResources.profile_revolut_business_toml),
            ("barclaycard-us", PackageResources.profile_barclaycard_us_toml),
            ("generic", PackageResources.profile_generic_toml),
        ]
    }
}
