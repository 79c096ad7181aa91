import Foundation
import TweakKitServer

nonisolated(unsafe) var editor = TweakEditor(manager: manager, token: "s3cret")
