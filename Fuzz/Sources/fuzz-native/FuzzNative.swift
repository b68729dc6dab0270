// SPDX-License-Identifier: Apache-2.0
import FuzzSupport
import SignatureInkFormats

/// libFuzzer entry point: decodes the input as the native JSON format and checks the result.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.decode(FuzzInput.data(bytes, count), as: .native)
    return 0
}
