/// The CSS of a rendered scene: a theme's custom properties (`--scenery-…`) drawn into the
/// page's cards, lists, buttons, forms, tabs and placeholders. A text a person can select
/// (a count that opens a list, a name that opens a profile) reads as a link. `HTMLRenderer.stylesheet`
/// is its public face; a web host serves it with its own page furniture.
package enum PageStylesheet {
    /// The CSS.
    ///
    /// Each paragraph, heading, label and list item takes its direction from its own text
    /// (`unicode-bidi: plaintext`), so user text of another direction reads right.
    static let css = """
        body{font:var(--scenery-font-size-body)/1.45 -apple-system,"Segoe UI","Noto Sans","Noto Sans CJK SC","PingFang SC","Noto Sans Arabic",sans-serif;max-width:760px;margin:24px auto;padding:0 var(--scenery-spacing-large);color:var(--scenery-color-text);background:var(--scenery-color-surface)}\
        main>h1{font-size:var(--scenery-font-size-display);margin:0 0 var(--scenery-spacing-large)}\
        section.module{border:1px solid var(--scenery-color-border);border-radius:var(--scenery-radius-medium);background:var(--scenery-color-surface-raised);margin:0 0 var(--scenery-spacing-large);padding:12px var(--scenery-spacing-large)}\
        section.module>header{font-size:12px;color:var(--scenery-color-text-muted);text-transform:uppercase;letter-spacing:.04em;margin-bottom:var(--scenery-spacing-medium)}\
        section.failed{border-color:var(--scenery-color-danger)}\
        h2{font-size:var(--scenery-font-size-title);margin:var(--scenery-spacing-small) 0}h3{font-size:var(--scenery-font-size-heading);margin:2px 0}p{margin:var(--scenery-spacing-small) 0}.caption{color:var(--scenery-color-text-muted);font-size:var(--scenery-font-size-caption)}\
        p.status{color:var(--scenery-color-danger-text);background:var(--scenery-color-danger-surface);border-inline-start:3px solid var(--scenery-color-danger);padding:var(--scenery-spacing-small) var(--scenery-spacing-medium);font-size:14px}\
        .stack.horizontal{display:flex;gap:12px;align-items:center;flex-wrap:wrap}\
        .section>h2{font-size:var(--scenery-font-size-caption);color:var(--scenery-color-text-muted);text-transform:uppercase;margin:12px 0 var(--scenery-spacing-small)}ul{list-style:none;margin:0;padding:0}\
        li{border-top:1px solid var(--scenery-color-divider);padding:var(--scenery-spacing-medium) 0}.grid ul{display:grid;gap:var(--scenery-spacing-medium)}\
        button{font:inherit;border:1px solid var(--scenery-color-control-border);background:var(--scenery-color-control);color:var(--scenery-color-text);border-radius:var(--scenery-radius-small);padding:2px 12px;cursor:pointer;min-height:44px;min-width:44px}\
        button:active{background:var(--scenery-color-control-pressed)}button:disabled{color:var(--scenery-color-text-disabled);cursor:default}\
        button.primary{background:var(--scenery-color-accent);color:var(--scenery-color-on-accent);border-color:var(--scenery-color-accent)}button.destructive{color:var(--scenery-color-danger)}\
        button.danger{background:var(--scenery-color-danger);color:var(--scenery-color-on-danger);border-color:var(--scenery-color-danger)}\
        button:focus-visible,[data-node]:focus-visible{outline:2px solid var(--scenery-color-accent);outline-offset:2px}\
        img,.symbol{width:48px;height:48px;border-radius:50%;object-fit:cover;background:var(--scenery-color-border);display:inline-block;overflow:hidden;color:transparent}\
        .symbol.person{background:radial-gradient(circle at 50% 38%,var(--scenery-color-on-avatar) 0 16%,transparent 17%),radial-gradient(ellipse 42% 30% at 50% 92%,var(--scenery-color-on-avatar) 0 99%,transparent 100%),var(--scenery-color-avatar)}\
        .symbol.initials{background:var(--scenery-color-avatar);color:var(--scenery-color-on-avatar);text-align:center;line-height:48px;font-weight:600;font-size:18px}\
        .tabs>[role=tablist]{display:flex;gap:var(--scenery-spacing-medium);margin:var(--scenery-spacing-medium) 0}.tabs>[role=tablist] button[aria-selected=true]{background:var(--scenery-color-selected);color:var(--scenery-color-on-selected)}\
        .tabs.document>input{position:absolute;opacity:0;width:1px;height:1px}.tabs.document>.tablabels{display:flex;gap:var(--scenery-spacing-medium);margin:var(--scenery-spacing-medium) 0}\
        .tabs.document>.tablabels label{border:1px solid var(--scenery-color-control-border);background:var(--scenery-color-control);border-radius:var(--scenery-radius-small);padding:2px 10px;cursor:pointer}\
        .tabs.document>section.tabpanel{display:none}\
        \(documentTabRules)\
        \((1...12).map { ".columns-\($0){grid-template-columns:repeat(\($0),1fr)}" }.joined())\
        \(cellWidthClasses.map { ".cells-\($0){grid-template-columns:repeat(auto-fill,minmax(\($0)ch,1fr))}" }.joined())\
        .carousel ul.track{display:flex;gap:12px;overflow-x:auto;scroll-snap-type:x mandatory;padding:var(--scenery-spacing-small) 2px 10px}\
        .carousel ul.track>li{flex:0 0 auto;width:16em;border:1px solid var(--scenery-color-divider);border-radius:var(--scenery-radius-small);padding:var(--scenery-spacing-medium);scroll-snap-align:start}\
        .carousel ul.track:focus-visible{outline:2px solid var(--scenery-color-accent);outline-offset:2px}\
        .placeholder{color:var(--scenery-color-text-muted);font-style:italic}.placeholder.error{color:var(--scenery-color-danger);font-style:normal}\
        .module[data-status=loading]>[data-slot]{min-height:6em;border-radius:var(--scenery-radius-small);background:linear-gradient(90deg,var(--scenery-color-control),var(--scenery-color-surface),var(--scenery-color-control));background-size:200% 100%;animation:scenery-loading 1.4s linear infinite}\
        .module[data-status=loading] .placeholder.loading{padding:var(--scenery-spacing-medium)}\
        @keyframes scenery-loading{from{background-position:100% 0}to{background-position:-100% 0}}\
        @media (prefers-reduced-motion:reduce){.module[data-status=loading]>[data-slot]{animation:none}}\
        [data-action]{cursor:pointer}\
        p[role=button],h2[role=button],h3[role=button]{color:var(--scenery-color-accent);text-decoration:underline;text-decoration-thickness:1px;text-underline-offset:3px;cursor:pointer;width:fit-content}\
        p[role=button]:hover,h2[role=button]:hover,h3[role=button]:hover{text-decoration-thickness:2px}\
        \(formRules)\
        p,h2,h3,label,li{unicode-bidi:plaintext}
        """

    /// The minimum cell widths an adaptive grid's CSS has rules for, in `ch`.
    package static let cellWidthClasses = Array(stride(from: 8, through: 48, by: 4))

    /// The class of the nearest minimum cell width the CSS has.
    package static func cellWidthClass(_ width: Int) -> Int {
        cellWidthClasses.min { abs($0 - width) < abs($1 - width) } ?? 16
    }

    /// The CSS that shows the checked tab's panel of a document, for up to 12 tabs.
    package static let documentTabRules = (1...12).map { n in
        ".tabs.document>input:nth-of-type(\(n)):checked~section.tabpanel:nth-of-type(\(n)){display:block}"
            + ".tabs.document>input:nth-of-type(\(n)):checked~.tablabels label:nth-of-type(\(n)){background:var(--scenery-color-selected);color:var(--scenery-color-on-selected)}"
            + ".tabs.document>input:nth-of-type(\(n)):focus-visible~.tablabels label:nth-of-type(\(n)){outline:2px solid var(--scenery-color-accent)}"
    }.joined()

    /// Forms: each field a label above its input, inputs as tall as a button and drawn with
    /// the theme's control outline (the pairs `Theme.ContrastRequirement.all` checks: text
    /// on a card, a control's outline on a card, a form's error in the danger colour), the
    /// submit button under the fields, and errors in the danger colour under what they are
    /// about.
    static let formRules = """
        .form{display:grid;gap:var(--scenery-spacing-medium);margin:var(--scenery-spacing-medium) 0;max-width:100%}\
        .form>button[type=submit]{justify-self:start}\
        .field{display:grid;gap:4px;min-width:0}\
        .field>label{font-weight:600;font-size:var(--scenery-font-size-caption)}\
        .field input,.field textarea{font:inherit;color:var(--scenery-color-text);background:var(--scenery-color-surface-raised);border:1px solid var(--scenery-color-control-border);border-radius:var(--scenery-radius-small);padding:8px 10px;min-height:44px;box-sizing:border-box;width:100%}\
        .field textarea{resize:vertical}\
        .field input::placeholder,.field textarea::placeholder{color:var(--scenery-color-text-muted);opacity:1}\
        .field input:focus-visible,.field textarea:focus-visible{outline:2px solid var(--scenery-color-accent);outline-offset:1px}\
        .field [aria-invalid=true]{border-color:var(--scenery-color-danger);border-width:2px}\
        .field-error,.form-error{color:var(--scenery-color-danger);font-size:var(--scenery-font-size-caption);margin:0}\
        .form-error{font-weight:600}
        """
}
