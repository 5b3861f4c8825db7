/* Names of the protocols the shell itself knows; other files add theirs with
 * SH_GUID_NAME (dh and friends print these). */
#include "internal.h"
#include <efi/protocol/block_io.h>
#include <efi/protocol/component_name2.h>
#include <efi/protocol/device_path_from_text.h>
#include <efi/protocol/device_path_utilities.h>
#include <efi/protocol/driver_binding.h>
#include <efi/protocol/graphics_output.h>

SH_GUID_NAME(device_path, u"DevicePath", EFI_DEVICE_PATH_PROTOCOL_GUID);
SH_GUID_NAME(loaded_image, u"LoadedImage", EFI_LOADED_IMAGE_PROTOCOL_GUID);
SH_GUID_NAME(loaded_image_dp, u"LoadedImageDevicePath", EFI_LOADED_IMAGE_DEVICE_PATH_PROTOCOL_GUID);
SH_GUID_NAME(sfs, u"SimpleFileSystem", EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID);
SH_GUID_NAME(block_io, u"BlockIo", EFI_BLOCK_IO_PROTOCOL_GUID);
SH_GUID_NAME(text_in, u"SimpleTextIn", EFI_SIMPLE_TEXT_INPUT_PROTOCOL_GUID);
SH_GUID_NAME(text_in_ex, u"SimpleTextInEx", EFI_SIMPLE_TEXT_INPUT_EX_PROTOCOL_GUID);
SH_GUID_NAME(text_out, u"SimpleTextOut", EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL_GUID);
SH_GUID_NAME(gop, u"GraphicsOutput", EFI_GRAPHICS_OUTPUT_PROTOCOL_GUID);
SH_GUID_NAME(driver_binding, u"DriverBinding", EFI_DRIVER_BINDING_PROTOCOL_GUID);
SH_GUID_NAME(component_name2, u"ComponentName2", EFI_COMPONENT_NAME2_PROTOCOL_GUID);
SH_GUID_NAME(dp_to_text, u"DevicePathToText", EFI_DEVICE_PATH_TO_TEXT_PROTOCOL_GUID);
SH_GUID_NAME(dp_from_text, u"DevicePathFromText", EFI_DEVICE_PATH_FROM_TEXT_PROTOCOL_GUID);
SH_GUID_NAME(dp_utilities, u"DevicePathUtilities", EFI_DEVICE_PATH_UTILITIES_PROTOCOL_GUID);
SH_GUID_NAME(collation2, u"UnicodeCollation2", EFI_UNICODE_COLLATION_PROTOCOL2_GUID);
SH_GUID_NAME(shell, u"Shell", EFI_SHELL_PROTOCOL_GUID);
SH_GUID_NAME(shell_params, u"ShellParameters", EFI_SHELL_PARAMETERS_PROTOCOL_GUID);
SH_GUID_NAME(shell_var, u"ShellVariable", EFI_SHELL_VARIABLE_GUID);
SH_GUID_NAME(shell_alias, u"ShellAlias", EFI_SHELL_ALIAS_GUID);
SH_GUID_NAME(global_var, u"GlobalVariable", EFI_GLOBAL_VARIABLE);
