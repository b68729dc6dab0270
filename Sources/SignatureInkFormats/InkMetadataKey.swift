// SPDX-License-Identifier: Apache-2.0

/// The `Signature.metadata` keys that mean something to this package.
///
/// Metadata holds free-form facts about the capture (a device, an app, an InkML annotation); a stroke's pen is not
/// one of them: it lives in `Signature.pens`, which every decoder fills and every encoder writes.
public enum InkMetadataKey {
    /// Device units per inch of the coordinates, when they are tablet units rather than CSS pixels
    /// (SVC2004: `2540`), as the shortest decimal text of the number. A renderer can use it to draw the ink at its
    /// natural size (see `Signature.declaredUnitsPerInch`).
    public static let deviceUnitsPerInch = "device.unitsPerInch"
}
