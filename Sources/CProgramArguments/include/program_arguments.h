// SPDX-License-Identifier: Apache-2.0
// The program's arguments handed to the Swift runtime at start, by an initializer (program_arguments.c); nothing to
// call.
#ifndef SI_PROGRAM_ARGUMENTS_H
#define SI_PROGRAM_ARGUMENTS_H
#endif
