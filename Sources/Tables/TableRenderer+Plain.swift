import JSON

extension TableRenderer {
    /// The opening of a table for a page that streams its rows as plain HTML (no script): the `<table>` tag,
    /// column widths and the header, left open so that `<tbody>` sections can follow as batches arrive:
    /// ```html
    /// <table class="rs-table" id="rs-table" data-table="NAME" aria-label="TITLE">   (and the ``SkeletonStyle/shellAttributes``)
    /// <colgroup><col class="rs-col-FORMAT">...</colgroup>
    /// <thead><tr><th scope="col" class="rs-c rs-FORMAT">TITLE</th>...</tr></thead>
    /// ```
    /// Same classes as `renderShell`, so the same CSS (app.css, and ``TableStyleSheet``'s widths) lays it out identically.
    public func appendOpenTable(to out: inout [UInt8]) {
        out.append("<table class=\"rs-table\" id=\"rs-table\" data-table=\"")
        HTMLEscaping.appendEscaped(spec.name, to: &out)
        out.append("\" aria-label=\"")
        HTMLEscaping.appendEscaped(spec.title, to: &out)
        out.append("\"")
        if let skeleton = spec.skeleton { out.append(contentsOf: skeleton.shellAttributes.utf8) }   // its bones' motion
        out.append(">\n")
        appendColumnsAndHeader(to: &out)
    }

    /// `<colgroup>` (classes; the widths are ``TableStyleSheet``'s) and `<thead>` (escaped titles), followed by a newline:
    /// shared by the plain table and the shell, so both lay out identically.
    func appendColumnsAndHeader(to out: inout [UInt8]) {
        out.append("<colgroup>")
        for column in spec.columns {
            out.append("<col class=\"rs-col-")
            out.append(contentsOf: column.format.className.utf8)
            out.append("\">")   // its width: ``TableStyleSheet`` (no inline style under the CSP)
        }
        out.append("</colgroup>\n<thead><tr>")
        for column in spec.columns {
            out.append("<th scope=\"col\" class=\"rs-c rs-")
            out.append(contentsOf: column.format.className.utf8)
            out.append("\">")
            HTMLEscaping.appendEscaped(column.title, to: &out)
            out.append("</th>")
        }
        out.append("</tr></thead>\n")
    }
}
