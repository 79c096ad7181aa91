/// The reasons of a decision, in the SDKs' wording; when nobody reads them (a lookup through
/// the manager), nothing is formatted.
struct DecisionReasons {
    let isRecording: Bool
    private(set) var messages: [String] = []

    init(recording: Bool) {
        isRecording = recording
    }

    mutating func append(_ message: @autoclosure () -> String) {
        if isRecording { messages.append(message()) }
    }
}
