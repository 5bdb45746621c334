import HTTPTypes
import Tracing

/// Reads a trace context (`traceparent`, or whatever the tracer propagates) from a request's
/// header fields.
struct HTTPFieldsExtractor: Extractor {
    func extract(key: String, from fields: HTTPFields) -> String? {
        HTTPField.Name(key).flatMap { fields[$0] }
    }
}
