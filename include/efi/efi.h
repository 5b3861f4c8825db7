/* Everything an EFI application built against Ember's headers usually needs. */
#ifndef EFI_EFI_H
#define EFI_EFI_H

#include <efi/types.h>
#include <efi/status.h>
#include <efi/boot_services.h>
#include <efi/runtime_services.h>
#include <efi/system_table.h>
#include <efi/protocol/device_path.h>
#include <efi/protocol/loaded_image.h>
#include <efi/protocol/simple_text_input.h>
#include <efi/protocol/simple_text_input_ex.h>
#include <efi/protocol/simple_text_output.h>

#endif
