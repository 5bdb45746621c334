import SceneryViewTree

/// The markup of one text field: its label, the input (a text area for several lines) with
/// the rules a browser can check itself, and its error, tied to the input for assistive
/// technology.
package struct FieldMarkup {
    package let field: TextField
    /// The field node's id, escaped for an attribute.
    package let id: String

    package func write(into html: inout String) {
        let input = "\(id)--input"
        let errorID = "\(id)--error"
        var attributes = " id=\"\(input)\" name=\"\(HTMLRenderer.escapeAttribute(field.name))\" data-label=\"\(HTMLRenderer.escapeAttribute(field.label))\""
        if let placeholder = field.placeholder { attributes += " placeholder=\"\(HTMLRenderer.escapeAttribute(placeholder))\"" }
        if let maximum = field.maximumLength { attributes += " maxlength=\"\(maximum)\"" }
        for rule in field.rules {
            switch rule.kind {
            case .required: attributes += " required"
            case .length(let range): attributes += " minlength=\"\(range.lowerBound)\""
            case .pattern: break  // Checked by the page script with the module's message.
            }
        }
        // The rules as the module wrote them, so the page checks them with the module's words.
        if !field.rules.isEmpty, let rules = try? JSONValueEncoder().encode(field.rules) {
            attributes += " data-rules=\"\(HTMLRenderer.escapeAttribute(rules.compactJSON))\""
        }
        if field.changes != nil { attributes += " data-changes" }
        if field.error != nil { attributes += " aria-invalid=\"true\" aria-describedby=\"\(errorID)\"" }
        html += "<div id=\"\(id)\" class=\"field\" data-field=\"\(HTMLRenderer.escapeAttribute(field.name))\">\n"
        html += "<label for=\"\(input)\">\(HTMLRenderer.escape(field.label))</label>\n"
        switch field.lines {
        case .single:
            let type =
                switch field.keyboard {
                case .text, .number: "text"
                case .email: "email"
                case .search: "search"
                }
            let mode = field.keyboard == .number ? " inputmode=\"decimal\"" : ""
            html += "<input type=\"\(type)\"\(mode)\(attributes) value=\"\(HTMLRenderer.escapeAttribute(field.value))\">\n"
        case .multiple(let rows):
            html += "<textarea rows=\"\(max(1, min(rows, 40)))\"\(attributes)>\(HTMLRenderer.escape(field.value))</textarea>\n"
        }
        if let error = field.error {
            html += "<p id=\"\(errorID)\" class=\"field-error\">\(HTMLRenderer.escape(error))</p>\n"
        }
        html += "</div>\n"
    }
}
