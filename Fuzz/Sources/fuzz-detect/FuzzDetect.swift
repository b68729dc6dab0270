// SPDX-License-Identifier: Apache-2.0
import FuzzSupport

/// libFuzzer entry point: decodes the input as whatever format it looks like and checks the result.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.decode(FuzzInput.data(bytes, count), as: nil)
    return 0
}
