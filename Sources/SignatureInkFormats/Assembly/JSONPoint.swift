// SPDX-License-Identifier: Apache-2.0

/// A point object of the `{x, y, time, pressure}` shape that signature_pad and stroke lists share, its
/// values read where they stand and checked later, so errors come in the order x, y, time, pressure
/// whatever the order of the keys. Other keys are skipped; the first of a repeated key counts.
struct JSONPoint {
    var x: JSONReader.Scalar?
    var y: JSONReader.Scalar?
    var time: JSONReader.Scalar?
    var pressure: JSONReader.Scalar?

    /// Reads the object at the reader's position.
    /// - Throws: a field error naming `path` when the value is not an object; a syntax error.
    init(_ r: inout JSONReader, path: @autoclosure () -> String) throws(JSONReader.Stop) {
        try r.expectKind(.object, path: path())
        guard try r.enterObject() else { return }
        repeat {
            let key = try r.key()
            if x == nil && r.matches(key, "x") { x = try r.scalar() }
            else if y == nil && r.matches(key, "y") { y = try r.scalar() }
            else if time == nil && r.matches(key, "time") { time = try r.scalar() }
            else if pressure == nil && r.matches(key, "pressure") { pressure = try r.scalar() }
            else { try r.skipValue() }
        } while try r.nextInObject()
    }
}
