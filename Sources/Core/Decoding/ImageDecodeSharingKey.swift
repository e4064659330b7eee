/// Equal for two requests whose decodes of the same bytes give the same image (see
/// ``ImageDecodeRequest/sharingKey``): a loader that serves several requesters from one
/// download decodes once per distinct key.
public struct ImageDecodeSharingKey: Hashable, Sendable {
    let flags: UInt64
    let scaleFactor: Double
    let fileExtensionHint: String?
    let context: WebImageContextIdentity
}
