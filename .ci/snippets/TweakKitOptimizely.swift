import Foundation

let url = URL(filePath: "datafile.json")
