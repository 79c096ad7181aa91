public import Foundation

/// Writes generated files, touching only those whose content changed (so builds stay incremental).
public enum GeneratedFileWriter {
    /// Writes `files` into `directory`; returns the names of the files that were (re)written.
    @discardableResult
    public static func write(_ files: [GeneratedFile], to directory: URL) throws -> [String] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var written: [String] = []
        for file in files {
            let url = directory.appendingPathComponent(file.name)
            let data = Data(file.contents.utf8)
            if FileManager.default.contents(atPath: url.path) == data { continue }
            try data.write(to: url, options: .atomic)
            written.append(file.name)
        }
        return written
    }
}
