// SPDX-License-Identifier: Apache-2.0
import FuzzSupport

/// libFuzzer entry point: decodes the input in whatever format it looks like and renders it to PNG, SVG and PDF.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    if let signature = FuzzInput.decode(FuzzInput.data(bytes, count), as: nil) {
        FuzzInput.render(signature)
    }
    return 0
}
