import Foundation
#if GrowthBook
import Crypto
import _CryptoExtras
#else
#error("TweakKitGrowthBook needs the package trait GrowthBook: .package(url: …, traits: [\"GrowthBook\"])")
#endif

/// Decrypts GrowthBook's encrypted payload fields: `base64(iv) + "." + base64(ciphertext)`,
/// AES-CBC with PKCS#7 padding, the key in base64.
///
/// ```swift
/// let json = try GrowthBookDecryption.decrypt(encryptedFeatures, key: "Zvwv/+uhpFDznZ6SX28Yjg==")   // the payload's "encryptedFeatures"
/// ```
public enum GrowthBookDecryption {
    /// Why a payload field could not be decrypted.
    public enum Failure: Error, Hashable, CustomStringConvertible {
        case invalidKey
        case malformedCiphertext
        case decryptionFailed
        case notUTF8

        /// What went wrong, for messages.
        public var description: String {
            switch self {
            case .invalidKey: "the decryption key is not a base64 AES key (16, 24 or 32 bytes)"
            case .malformedCiphertext: "the encrypted text is not base64(iv).base64(ciphertext)"
            case .decryptionFailed: "decryption failed (wrong key or corrupted ciphertext)"
            case .notUTF8: "the decrypted bytes are not UTF-8 text"
            }
        }
    }

    /// The decrypted text.
    public static func decrypt(_ encrypted: String, key: String) throws(Failure) -> String {
        guard let keyBytes = Data(base64Encoded: key), [16, 24, 32].contains(keyBytes.count) else { throw .invalidKey }
        let parts = encrypted.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let iv = Data(base64Encoded: String(parts[0])), iv.count == 16,
              let ciphertext = Data(base64Encoded: String(parts[1])), !ciphertext.isEmpty else { throw .malformedCiphertext }
        let plaintext: Data
        do {
            plaintext = try AES._CBC.decrypt(ciphertext, using: SymmetricKey(data: keyBytes), iv: AES._CBC.IV(ivBytes: iv))
        } catch {
            throw .decryptionFailed
        }
        guard let text = String(data: plaintext, encoding: .utf8) else { throw .notUTF8 }
        return text
    }
}
