// The trivial executable the scenery command's cold start is compared with (scenery-bench
// cold-start): it loads Foundation and decodes a small JSON, as any Swift tool does.
import Foundation

struct Greeting: Decodable {
    var name: String
    var count: Int
}

let json = Data(#"{ "name": "Alice", "count": 3 }"#.utf8)
let greeting = try JSONDecoder().decode(Greeting.self, from: json)
print("Hello, \(greeting.name) × \(greeting.count)")
