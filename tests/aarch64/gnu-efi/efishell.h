/* gnu-efi's names for the shell protocols (tests/aarch64/gnu-efi/efi.h says why). */
#ifndef TESTS_AARCH64_GNU_EFISHELL_H
#define TESTS_AARCH64_GNU_EFISHELL_H

#include <efi/protocol/shell.h>

typedef EFI_LIST_ENTRY LIST_ENTRY;
#define Flink ForwardLink

extern EFI_GUID ShellProtocolGuid;
extern EFI_GUID ShellParametersProtocolGuid;

#endif
