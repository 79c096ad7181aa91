public import Foundation

extension TweakError: LocalizedError {
    /// The error's ``description``, for `localizedDescription`.
    public var errorDescription: String? { description }
}

extension TweakFileError: LocalizedError {
    /// The error's ``description``, for `localizedDescription`.
    public var errorDescription: String? { description }
}

extension JSONSyntaxError: LocalizedError {
    /// The error's ``description``, for `localizedDescription`.
    public var errorDescription: String? { description }
}
