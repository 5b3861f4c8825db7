/* A UEFI bus driver as third-party software writes it (gnu-efi), for the shell's system
 * commands: loaded with `load`, its entry point makes one controller handle
 * (VenHw(TEST_BUS)/ with the TEST_BUS protocol) and installs DriverBinding and
 * ComponentName2 on its image handle. Start opens the controller's protocol BY_DRIVER and
 * makes two children (.../Ctrl(0x0) and .../Ctrl(0x1) with the TEST_CHILD protocol), each
 * opening the parent's protocol BY_CHILD_CONTROLLER; Stop undoes it. Names:
 * "Ember Test Bus Driver", "Test Bus Controller", "Test Child 0/1".
 *
 * The Makefile links gnu-efi programs as applications; tests turn the subsystem into a
 * boot-service driver (11) so that the image stays loaded after its entry point returns. */
#include <efi.h>
#include <efilib.h>

#define MSABI __attribute__((ms_abi))
#define CALL(fn, n, ...) uefi_call_wrapper((void *)(fn), n, __VA_ARGS__)

static EFI_GUID bus_guid = {
    0x5e1f7b30, 0x2c4a, 0x4d5b, {0x8a, 0x61, 0x3f, 0x0e, 0x9d, 0x72, 0x14, 0xb0}};
static EFI_GUID child_guid = {
    0x5e1f7b31, 0x2c4a, 0x4d5b, {0x8a, 0x61, 0x3f, 0x0e, 0x9d, 0x72, 0x14, 0xb0}};
static EFI_GUID cn2_guid = EFI_COMPONENT_NAME2_PROTOCOL_GUID;

#pragma pack(1)
struct bus_path {
	VENDOR_DEVICE_PATH vendor;
	EFI_DEVICE_PATH end;
};
struct child_path {
	VENDOR_DEVICE_PATH vendor;
	CONTROLLER_DEVICE_PATH ctrl;
	EFI_DEVICE_PATH end;
};
#pragma pack()

/* clang-format off */
#define NODE_LEN(t) {(UINT8)sizeof(t), (UINT8)(sizeof(t) >> 8)}
/* clang-format on */

static struct bus_path bus_path = {
    {{HARDWARE_DEVICE_PATH, HW_VENDOR_DP, NODE_LEN(VENDOR_DEVICE_PATH)},
     {0x5e1f7b30, 0x2c4a, 0x4d5b, {0x8a, 0x61, 0x3f, 0x0e, 0x9d, 0x72, 0x14, 0xb0}}},
    {END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, {4, 0}}};
static struct child_path child_paths[2];

static UINT32 bus_iface = 0xb05;
static UINT32 child_iface[2] = {0xc0, 0xc1};
static EFI_HANDLE bus_handle, child_handles[2];
static EFI_DRIVER_BINDING_PROTOCOL binding;
static EFI_COMPONENT_NAME2_PROTOCOL names;

static MSABI EFI_STATUS supported(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE ctrl,
				  EFI_DEVICE_PATH *remaining)
{
	void *iface;
	EFI_STATUS status = CALL(BS->OpenProtocol, 6, ctrl, &bus_guid, &iface,
				 this->DriverBindingHandle, ctrl, EFI_OPEN_PROTOCOL_BY_DRIVER);

	if (EFI_ERROR(status))
		return status;
	CALL(BS->CloseProtocol, 4, ctrl, &bus_guid, this->DriverBindingHandle, ctrl);
	return EFI_SUCCESS;
}

static EFI_STATUS make_child(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE ctrl, int i)
{
	void *iface;
	EFI_STATUS status;

	child_paths[i].vendor = bus_path.vendor;
	child_paths[i].ctrl.Header.Type = HARDWARE_DEVICE_PATH;
	child_paths[i].ctrl.Header.SubType = HW_CONTROLLER_DP;
	child_paths[i].ctrl.Header.Length[0] = sizeof(CONTROLLER_DEVICE_PATH);
	child_paths[i].ctrl.Header.Length[1] = 0;
	child_paths[i].ctrl.Controller = i;
	child_paths[i].end = bus_path.end;
	child_handles[i] = NULL;
	status = CALL(BS->InstallMultipleProtocolInterfaces, 6, &child_handles[i],
		      &DevicePathProtocol, &child_paths[i], &child_guid, &child_iface[i], NULL);
	if (EFI_ERROR(status))
		return status;
	return CALL(BS->OpenProtocol, 6, ctrl, &bus_guid, &iface, this->DriverBindingHandle,
		    child_handles[i], EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER);
}

static MSABI EFI_STATUS start(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE ctrl,
			      EFI_DEVICE_PATH *remaining)
{
	void *iface;
	EFI_STATUS status = CALL(BS->OpenProtocol, 6, ctrl, &bus_guid, &iface,
				 this->DriverBindingHandle, ctrl, EFI_OPEN_PROTOCOL_BY_DRIVER);

	if (EFI_ERROR(status))
		return status;
	for (int i = 0; i < 2; i++) {
		status = make_child(this, ctrl, i);
		if (EFI_ERROR(status))
			return status;
	}
	return EFI_SUCCESS;
}

static MSABI EFI_STATUS stop(EFI_DRIVER_BINDING_PROTOCOL *this, EFI_HANDLE ctrl, UINTN count,
			     EFI_HANDLE *children)
{
	if (!count)
		return CALL(BS->CloseProtocol, 4, ctrl, &bus_guid, this->DriverBindingHandle, ctrl);
	for (UINTN c = 0; c < count; c++)
		for (int i = 0; i < 2; i++) {
			if (children[c] != child_handles[i])
				continue;
			CALL(BS->CloseProtocol, 4, ctrl, &bus_guid, this->DriverBindingHandle,
			     children[c]);
			CALL(BS->UninstallMultipleProtocolInterfaces, 6, children[c],
			     &DevicePathProtocol, &child_paths[i], &child_guid, &child_iface[i],
			     NULL);
			child_handles[i] = NULL;
		}
	return EFI_SUCCESS;
}

static MSABI EFI_STATUS driver_name(EFI_COMPONENT_NAME2_PROTOCOL *this, CHAR8 *lang, CHAR16 **name)
{
	*name = L"Ember Test Bus Driver";
	return EFI_SUCCESS;
}

static MSABI EFI_STATUS controller_name(EFI_COMPONENT_NAME2_PROTOCOL *this, EFI_HANDLE ctrl,
					EFI_HANDLE child, CHAR8 *lang, CHAR16 **name)
{
	if (ctrl != bus_handle)
		return EFI_UNSUPPORTED;
	if (!child) {
		*name = L"Test Bus Controller";
		return EFI_SUCCESS;
	}
	if (child == child_handles[0] && child) {
		*name = L"Test Child 0";
		return EFI_SUCCESS;
	}
	if (child == child_handles[1] && child) {
		*name = L"Test Child 1";
		return EFI_SUCCESS;
	}
	return EFI_UNSUPPORTED;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	EFI_STATUS status;

	InitializeLib(image, systab);
	binding.Supported = (EFI_DRIVER_BINDING_PROTOCOL_SUPPORTED)supported;
	binding.Start = (EFI_DRIVER_BINDING_PROTOCOL_START)start;
	binding.Stop = (EFI_DRIVER_BINDING_PROTOCOL_STOP)stop;
	binding.Version = 0x2a;
	binding.ImageHandle = image;
	binding.DriverBindingHandle = image;
	names.GetDriverName = (EFI_COMPONENT_NAME2_GET_DRIVER_NAME)driver_name;
	names.GetControllerName = (EFI_COMPONENT_NAME2_GET_CONTROLLER_NAME)controller_name;
	names.SupportedLanguages = (CHAR8 *)"en";
	status = CALL(BS->InstallMultipleProtocolInterfaces, 6, &bus_handle, &DevicePathProtocol,
		      &bus_path, &bus_guid, &bus_iface, NULL);
	if (EFI_ERROR(status))
		return status;
	return CALL(BS->InstallMultipleProtocolInterfaces, 6, &image, &DriverBindingProtocol,
		    &binding, &cn2_guid, &names, NULL);
}
