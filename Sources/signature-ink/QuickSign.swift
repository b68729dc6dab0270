// SPDX-License-Identifier: Apache-2.0

/// `sign FORM --ink INK --field NAME -o OUT` and every other `sign` option, read without ArgumentParser: what a form
/// renderer runs once per signed form.
///
/// ArgumentParser's parse of such a line took 21.7 M of the 65.4 M instructions of signing a ten-page form with a
/// name and a date in a new process (callgrind), its first use of each option type scanning every protocol
/// conformance in the binary. An option here is a ``SignRequest/Option`` under its one name, set by
/// ``SignRequest/set(_:to:)`` and checked by ``SignRequest/validate()``, which the parsed options go through too
/// (``SignCommand``). Any doubt goes to ArgumentParser, which then says what is wrong in its words: help, an option
/// of ``InputOptions`` (input format, limits), an option given twice, an unknown one, a value that looks like an
/// option or is not of its kind, more or fewer than one form, or a combination the request refuses.
enum QuickSign {
    /// The request `arguments` (without the program name) make, or `nil` when they are not of this form.
    static func request(for arguments: [String]) -> SignRequest? {
        guard arguments.count >= 2, arguments[0] == "sign" else { return nil }
        var form: String?
        var request = SignRequest(form: "")
        var given: [SignRequest.Option] = []
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            let option: SignRequest.Option
            var inline: String?
            if argument == "-o" {
                option = .output
            } else if argument.hasPrefix("--") {
                let flag = argument.dropFirst(2).split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let named = SignRequest.Option(rawValue: String(flag[0])) else { return nil }
                option = named
                if flag.count == 2 { inline = String(flag[1]) }
            } else {
                guard form == nil, !argument.isEmpty, !argument.hasPrefix("-") else { return nil }
                form = argument
                continue
            }
            guard !given.contains(option) else { return nil }
            given.append(option)
            let text: String
            if option.isSwitch {
                guard inline == nil else { return nil }
                text = "true"
            } else if let inline {
                text = inline
            } else {
                guard let value = rest.popFirst(), !value.hasPrefix("-") else { return nil }
                text = value
            }
            guard request.set(option, to: text) else { return nil }
        }
        guard let form else { return nil }
        request.form = form
        do { try request.validate() } catch { return nil }
        return request
    }
}
