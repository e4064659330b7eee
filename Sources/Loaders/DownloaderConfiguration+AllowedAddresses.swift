extension DownloaderConfiguration {
    /// Whether `entry` is something ``allowedNonPublicAddresses`` can hold: an IPv4 or IPv6
    /// address, with or without a `/prefix` within its range (0-32, 0-128); whitespace around
    /// it is ignored.
    ///
    /// The address guard's own parser, so a check made before the configuration is used (a
    /// command line's) agrees with the guard, which refuses every connection while an entry
    /// is malformed.
    package static func isValidAllowedNonPublicAddress(_ entry: String) -> Bool {
        AddressGuard.network(entry) != nil
    }
}
