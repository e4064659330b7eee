/// Whether decoded images are forced into a ready-to-draw bitmap
/// (SDWebImage's `SDImageForceDecodePolicy`).
///
/// On Linux every built-in coder already produces a plain RGBA bitmap, so `automatic` and
/// `always` behave the same for them; the policy exists for coders that decode lazily.
public enum ImageForceDecodePolicy: Int, Hashable, Sendable {
    /// Force-decode when the coder says it helps (the default).
    case automatic
    /// Never force-decode.
    case never
    /// Always force-decode.
    case always
}
