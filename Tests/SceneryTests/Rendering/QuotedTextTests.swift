import Testing

@testable import Scenery

/// `String.quoted`, the form every message and log line gives what someone else wrote: short,
/// on one line, and read in the order it was written.
@Suite struct QuotedTextTests {
    @Test func controlsSeparatorsAndDirectionControlsAreWrittenAsEscapes() {
        #expect("a\nb\tc".quoted == #"'a\nb\tc'"#)
        #expect("a\u{2028}b\u{2029}c".quoted == #"'a\u{2028}b\u{2029}c'"#)
        #expect("gnp.\u{202E}exe".quoted == #"'gnp.\u{202E}exe'"#)
        #expect("\u{2066}x\u{2069}\u{200F}".quoted == #"'\u{2066}x\u{2069}\u{200F}'"#)
        // Text that only looks unusual stays as it is: Arabic, Chinese, an emoji joined by ZWJ.
        #expect("مرحبا 你好 👩‍💻".quoted == "'مرحبا 你好 👩‍💻'")
    }

    @Test func longTextIsCutAndSaysItsLength() {
        #expect(String(repeating: "9", count: 300).quoted(limit: 3) == "'999…' (300 characters)")
    }
}
