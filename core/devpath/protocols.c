/* EFI_DEVICE_PATH_UTILITIES_PROTOCOL, EFI_DEVICE_PATH_TO_TEXT_PROTOCOL and
 * EFI_DEVICE_PATH_FROM_TEXT_PROTOCOL (UEFI 2.10, 10.5 and 10.6): thin EFIAPI entries over
 * the dp_* functions. */
#include <ember/core/devpath.h>
#include <ember/core/core.h>
#include <efi/protocol/device_path_utilities.h>
#include <efi/protocol/device_path_to_text.h>
#include <efi/protocol/device_path_from_text.h>
#include <ember/lib/guids.h>

static UINTN EFIAPI get_device_path_size(CONST EFI_DEVICE_PATH_PROTOCOL *path)
{
	return dp_size(path);
}

static EFI_DEVICE_PATH_PROTOCOL *EFIAPI duplicate_device_path(CONST EFI_DEVICE_PATH_PROTOCOL *path)
{
	return dp_dup(path);
}

static EFI_DEVICE_PATH_PROTOCOL *EFIAPI append_device_path(CONST EFI_DEVICE_PATH_PROTOCOL *src1,
							   CONST EFI_DEVICE_PATH_PROTOCOL *src2)
{
	return dp_append(src1, src2);
}

static EFI_DEVICE_PATH_PROTOCOL *EFIAPI append_device_node(CONST EFI_DEVICE_PATH_PROTOCOL *path,
							   CONST EFI_DEVICE_PATH_PROTOCOL *node)
{
	return dp_append_node(path, node);
}

static EFI_DEVICE_PATH_PROTOCOL *EFIAPI append_device_path_instance(
    CONST EFI_DEVICE_PATH_PROTOCOL *path, CONST EFI_DEVICE_PATH_PROTOCOL *instance)
{
	return dp_append_instance(path, instance);
}

static EFI_DEVICE_PATH_PROTOCOL *EFIAPI
get_next_device_path_instance(EFI_DEVICE_PATH_PROTOCOL **instance, UINTN *size)
{
	return dp_next_instance(instance, size);
}

static BOOLEAN EFIAPI is_device_path_multi_instance(CONST EFI_DEVICE_PATH_PROTOCOL *path)
{
	return dp_is_multi_instance(path);
}

static EFI_DEVICE_PATH_PROTOCOL *EFIAPI create_device_node(UINT8 type, UINT8 subtype, UINT16 length)
{
	return dp_create_node(type, subtype, length);
}

static CHAR16 *EFIAPI convert_device_node_to_text(CONST EFI_DEVICE_PATH_PROTOCOL *node,
						  BOOLEAN display_only, BOOLEAN allow_shortcuts)
{
	return dp_node_to_text(node, display_only, allow_shortcuts);
}

static CHAR16 *EFIAPI convert_device_path_to_text(CONST EFI_DEVICE_PATH_PROTOCOL *path,
						  BOOLEAN display_only, BOOLEAN allow_shortcuts)
{
	return dp_to_text(path, display_only, allow_shortcuts);
}

static EFI_DEVICE_PATH_PROTOCOL *EFIAPI convert_text_to_device_node(CONST CHAR16 *text)
{
	return dp_node_from_text(text);
}

static EFI_DEVICE_PATH_PROTOCOL *EFIAPI convert_text_to_device_path(CONST CHAR16 *text)
{
	return dp_from_text(text);
}

static EFI_DEVICE_PATH_UTILITIES_PROTOCOL utilities = {
    .GetDevicePathSize = get_device_path_size,
    .DuplicateDevicePath = duplicate_device_path,
    .AppendDevicePath = append_device_path,
    .AppendDeviceNode = append_device_node,
    .AppendDevicePathInstance = append_device_path_instance,
    .GetNextDevicePathInstance = get_next_device_path_instance,
    .IsDevicePathMultiInstance = is_device_path_multi_instance,
    .CreateDeviceNode = create_device_node,
};

static EFI_DEVICE_PATH_TO_TEXT_PROTOCOL to_text = {
    .ConvertDeviceNodeToText = convert_device_node_to_text,
    .ConvertDevicePathToText = convert_device_path_to_text,
};

static EFI_DEVICE_PATH_FROM_TEXT_PROTOCOL from_text = {
    .ConvertTextToDeviceNode = convert_text_to_device_node,
    .ConvertTextToDevicePath = convert_text_to_device_path,
};

EFI_STATUS devpath_install_protocols(void)
{
	EFI_HANDLE handle = NULL;

	return protocol_install_multiple(&handle, &efi_device_path_utilities_protocol_guid,
					 (void *)&utilities, &efi_device_path_to_text_protocol_guid,
					 (void *)&to_text, &efi_device_path_from_text_protocol_guid,
					 (void *)&from_text, NULL);
}
