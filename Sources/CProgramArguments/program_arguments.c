// SPDX-License-Identifier: Apache-2.0
// The Swift runtime finds a Linux program's arguments at start by reading /proc/self/maps for the stack that holds
// them (CommandLine.cpp's ArgvGrabber, an initializer of the static runtime): it opens the file and scans each of
// its 50-odd lines with sscanf, 124 K instructions and about 30 us before anything else runs, in every process. The
// C library passes argc and argv to an executable's initializers, and the runtime takes an override of its own
// (`_swift_stdlib_overrideUnsafeArgvArgc`): this initializer hands them over, so the release link can leave the
// grabber's initializer out (Scripts/link-release). Where the grabber still runs (the development build), the
// override is what `CommandLine.arguments` reads, and it is the same argv.
#include "program_arguments.h"

// The Swift runtime's entry point, in the Swift calling convention (the same registers as C for these arguments).
extern void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) __attribute__((swiftcall));

__attribute__((constructor)) static void si_hand_over_arguments(int argc, char **argv, char **envp) {
    (void)envp;
    _swift_stdlib_overrideUnsafeArgvArgc(argv, argc);
}
