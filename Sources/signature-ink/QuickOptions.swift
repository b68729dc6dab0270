// SPDX-License-Identifier: Apache-2.0

/// The options of a command line read without ArgumentParser, for the commands a form renderer or a consent product
/// runs once per document: `sign FORM ...` (``SignRequest``) and `consent [sign] DOCUMENT ...`
/// (``ConsentSignRequest``).
///
/// ArgumentParser's parse of such a line took 21.7 M of the 65.4 M instructions of signing a ten-page form with a
/// name and a date in a new process (callgrind), its first use of each option type scanning every protocol
/// conformance in the binary. An option here is a request's `Option` under its one name, set by the request's
/// `set(_:to:)` and checked by its `validate()`, which the parsed options go through too (``SignCommand``,
/// ``ConsentSignCommand``). Any doubt goes to ArgumentParser, which then says what is wrong in its words: help, an
/// option of ``InputOptions`` (input format, limits), an option given twice that is not one to repeat, an unknown
/// one, a value that looks like an option or is not of its kind, more or fewer than one positional argument, or a
/// combination the request refuses.
enum QuickOptions {
    /// Reads `arguments` (after the command's name): `-o` as `output`, `--name value`, `--name=value` and switches.
    /// - Parameters:
    ///   - output: the option `-o` stands for.
    ///   - isSwitch: whether an option takes no value (it is then set to `"true"`).
    ///   - repeats: whether an option may be given more than once.
    ///   - set: sets an option from its text; `false` when the text is not of its kind.
    /// - Returns: the one positional argument, or `nil` when the line is not of this form.
    static func read<Option: RawRepresentable & Equatable>(
        _ arguments: ArraySlice<String>, output: Option, isSwitch: (Option) -> Bool, repeats: (Option) -> Bool,
        set: (Option, String) -> Bool
    ) -> String? where Option.RawValue == String {
        var positional: String?
        var given: [Option] = []  // an array, not a set: no generic set type for a new process to build
        var rest = arguments
        while let argument = rest.popFirst() {
            let option: Option
            var inline: String?
            if argument == "-o" {
                option = output
            } else if argument.hasPrefix("--") {
                let flag = argument.dropFirst(2).split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let named = Option(rawValue: String(flag[0])) else { return nil }
                option = named
                if flag.count == 2 { inline = String(flag[1]) }
            } else {
                guard positional == nil, !argument.isEmpty, !argument.hasPrefix("-") else { return nil }
                positional = argument
                continue
            }
            guard repeats(option) || !given.contains(option) else { return nil }
            given.append(option)
            let text: String
            if isSwitch(option) {
                guard inline == nil else { return nil }
                text = "true"
            } else if let inline {
                text = inline
            } else {
                guard let value = rest.popFirst(), !value.hasPrefix("-") else { return nil }
                text = value
            }
            guard set(option, text) else { return nil }
        }
        return positional
    }

    /// The `sign` request `arguments` (without the program name) make, or `nil` when they are not of this form.
    static func sign(_ arguments: [String]) -> SignRequest? {
        guard arguments.count >= 2, arguments[0] == "sign" else { return nil }
        var request = SignRequest(form: "")
        guard let form = read(arguments.dropFirst(), output: SignRequest.Option.output, isSwitch: \.isSwitch,
                              repeats: { _ in false },
                              set: { request.set($0, to: $1) }) else { return nil }
        request.form = form
        do { try request.validate() } catch { return nil }
        return request
    }

    /// The `consent sign` request `arguments` (without the program name) make, `sign` being the default subcommand,
    /// or `nil` when they are not of this form.
    static func consent(_ arguments: [String]) -> ConsentSignRequest? {
        guard arguments.count >= 2, arguments[0] == "consent" else { return nil }
        let rest = arguments[1] == "sign" ? arguments.dropFirst(2) : arguments.dropFirst()
        // Another subcommand, or help, is the parser's.
        guard let first = rest.first, !["verify", "preview", "help"].contains(first) else { return nil }
        var request = ConsentSignRequest(document: "")
        var given: [ConsentSignRequest.Option] = []
        guard let document = read(rest, output: ConsentSignRequest.Option.output, isSwitch: { _ in false },
                                  repeats: \.repeats,
                                  set: { given.append($0); return request.set($0, to: $1) }) else { return nil }
        // --output and --record have no default: without either, the parser says so.
        guard given.contains(.output), given.contains(.record) else { return nil }
        request.document = document
        do { try request.validate() } catch { return nil }
        return request
    }
}
