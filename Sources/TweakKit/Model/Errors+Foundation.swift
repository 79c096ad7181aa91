public import Foundation

extension TweakError: LocalizedError {
    public var errorDescription: String? { description }
}

extension TweakFileError: LocalizedError {
    public var errorDescription: String? { description }
}

extension JSONSyntaxError: LocalizedError {
    public var errorDescription: String? { description }
}
