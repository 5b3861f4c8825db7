/* Text of messaging device nodes (UEFI 2.10, 10.6.1.4 - 10.6.1.6). */
#include "devpath_internal.h"
#include <ember/lib/str.h>
#include <ember/lib/guids.h>

#define AT(T, f) (n + offsetof(T, f))

static bool print_ata(struct dp_out *o, const UINT8 *n, UINTN len)
{
	UINT8 ctrl, drive;
	UINT16 lun;

	if (len != sizeof(ATAPI_DEVICE_PATH))
		return false;
	ctrl = *AT(ATAPI_DEVICE_PATH, PrimarySecondary);
	drive = *AT(ATAPI_DEVICE_PATH, SlaveMaster);
	lun = dp_rd16(AT(ATAPI_DEVICE_PATH, Lun));
	if (o->display_only) {
		dp_out_printf(o, "Ata(0x%X)", lun);
		return true;
	}
	dp_out_ascii(o, "Ata(");
	if (ctrl <= 1)
		dp_out_ascii(o, ctrl ? "Secondary," : "Primary,");
	else
		dp_out_printf(o, "0x%X,", ctrl);
	if (drive <= 1)
		dp_out_ascii(o, drive ? "Slave," : "Master,");
	else
		dp_out_printf(o, "0x%X,", drive);
	dp_out_printf(o, "0x%X)", lun);
	return true;
}

static bool print_scsi(struct dp_out *o, const UINT8 *n, UINTN len)
{
	if (len != sizeof(SCSI_DEVICE_PATH))
		return false;
	dp_out_printf(o, "Scsi(0x%X,0x%X)", dp_rd16(AT(SCSI_DEVICE_PATH, Pun)),
		      dp_rd16(AT(SCSI_DEVICE_PATH, Lun)));
	return true;
}

static bool print_fibre(struct dp_out *o, const UINT8 *n, UINTN len)
{
	if (len != sizeof(FIBRECHANNEL_DEVICE_PATH) ||
	    dp_rd32(AT(FIBRECHANNEL_DEVICE_PATH, Reserved)))
		return false;
	dp_out_printf(o, "Fibre(0x%llX,0x%llX)",
		      (unsigned long long)dp_rd64(AT(FIBRECHANNEL_DEVICE_PATH, WWN)),
		      (unsigned long long)dp_rd64(AT(FIBRECHANNEL_DEVICE_PATH, Lun)));
	return true;
}

static bool print_fibre_ex(struct dp_out *o, const UINT8 *n, UINTN len)
{
	if (len != sizeof(FIBRECHANNELEX_DEVICE_PATH) ||
	    dp_rd32(AT(FIBRECHANNELEX_DEVICE_PATH, Reserved)))
		return false;
	dp_out_ascii(o, "FibreEx(");
	dp_out_be8(o, AT(FIBRECHANNELEX_DEVICE_PATH, WWN));
	dp_out_ascii(o, ",");
	dp_out_be8(o, AT(FIBRECHANNELEX_DEVICE_PATH, Lun));
	dp_out_ascii(o, ")");
	return true;
}

static bool print_1394(struct dp_out *o, const UINT8 *n, UINTN len)
{
	if (len != sizeof(F1394_DEVICE_PATH) || dp_rd32(AT(F1394_DEVICE_PATH, Reserved)))
		return false;
	dp_out_printf(o, "I1394(%016llX)",
		      (unsigned long long)dp_rd64(AT(F1394_DEVICE_PATH, Guid)));
	return true;
}

static bool print_usb(struct dp_out *o, const UINT8 *n, UINTN len)
{
	if (len != sizeof(USB_DEVICE_PATH))
		return false;
	dp_out_printf(o, "USB(0x%X,0x%X)", *AT(USB_DEVICE_PATH, ParentPortNumber),
		      *AT(USB_DEVICE_PATH, InterfaceNumber));
	return true;
}

static bool print_i2o(struct dp_out *o, const UINT8 *n, UINTN len)
{
	if (len != sizeof(I2O_DEVICE_PATH))
		return false;
	dp_out_printf(o, "I2O(0x%X)", (unsigned)dp_rd32(AT(I2O_DEVICE_PATH, Tid)));
	return true;
}

static bool print_infiniband(struct dp_out *o, const UINT8 *n, UINTN len)
{
	if (len != sizeof(INFINIBAND_DEVICE_PATH))
		return false;
	dp_out_printf(o, "Infiniband(0x%X,",
		      (unsigned)dp_rd32(AT(INFINIBAND_DEVICE_PATH, ResourceFlags)));
	dp_out_guid(o, AT(INFINIBAND_DEVICE_PATH, PortGid));
	dp_out_printf(o, ",0x%llX,0x%llX,0x%llX)",
		      (unsigned long long)dp_rd64(AT(INFINIBAND_DEVICE_PATH, ServiceId)),
		      (unsigned long long)dp_rd64(AT(INFINIBAND_DEVICE_PATH, TargetPortId)),
		      (unsigned long long)dp_rd64(AT(INFINIBAND_DEVICE_PATH, DeviceId)));
	return true;
}

void dp_print_sas_topology(struct dp_out *o, UINT16 info)
{
	UINT16 more = info & 0x0f;

	/* Keywords only where they carry every bit: bit 7 and unused bay bits must be clear. */
	if (info == 0) {
		dp_out_ascii(o, "NoTopology,0,0,0");
	} else if ((more == 1 && !(info & 0xff80)) || (more == 2 && !(info & 0x0080))) {
		dp_out_ascii(o, info & 0x10 ? "SATA," : "SAS,");
		dp_out_ascii(o, info & 0x20 ? "External," : "Internal,");
		dp_out_ascii(o, info & 0x40 ? "Expanded," : "Direct,");
		if (more == 1)
			dp_out_ascii(o, "0");
		else
			dp_out_printf(o, "0x%X", (info >> 8) + 1);
	} else {
		dp_out_printf(o, "0x%X,0,0,0", info);
	}
}

static bool print_sas(struct dp_out *o, const UINT8 *n)
{
	dp_out_printf(o, "SAS(0x%llX,0x%llX,0x%X,",
		      (unsigned long long)dp_rd64(AT(SAS_DEVICE_PATH, SasAddress)),
		      (unsigned long long)dp_rd64(AT(SAS_DEVICE_PATH, Lun)),
		      dp_rd16(AT(SAS_DEVICE_PATH, RelativeTargetPort)));
	dp_print_sas_topology(o, dp_rd16(AT(SAS_DEVICE_PATH, DeviceTopology)));
	dp_out_printf(o, ",0x%X)", (unsigned)dp_rd32(AT(SAS_DEVICE_PATH, Reserved)));
	return true;
}

/* The vendor GUIDs with a shortcut form of their own (10.6.1.5). */
static bool print_msg_shortcut(struct dp_out *o, const UINT8 *n, UINTN len)
{
	static const struct {
		const EFI_GUID *guid;
		const char *text;
	} plain[] = {
	    {&efi_pc_ansi_guid, "VenPcAnsi()"},
	    {&efi_vt_100_guid, "VenVt100()"},
	    {&efi_vt_100_plus_guid, "VenVt100Plus()"},
	    {&efi_vt_utf8_guid, "VenUtf8()"},
	    {&efi_debugport_protocol_guid, "DebugPort()"},
	};
	static const char *const flow[] = {"None", "Hardware", "XonXoff"};
	const UINT8 *guid = AT(VENDOR_DEVICE_PATH, Guid);

	for (UINTN i = 0; i < ARRAY_SIZE(plain); i++) {
		if (len == sizeof(VENDOR_DEVICE_PATH) && dp_guid_is(guid, plain[i].guid)) {
			dp_out_ascii(o, plain[i].text);
			return true;
		}
	}
	if (len == sizeof(UART_FLOW_CONTROL_DEVICE_PATH) &&
	    dp_guid_is(guid, &efi_device_path_messaging_uart_flow_control_guid)) {
		UINT32 map = dp_rd32(AT(UART_FLOW_CONTROL_DEVICE_PATH, FlowControlMap));

		if (map < ARRAY_SIZE(flow)) {
			dp_out_printf(o, "UartFlowCtrl(%s)", flow[map]);
			return true;
		}
	}
	if (len == sizeof(SAS_DEVICE_PATH) && dp_guid_is(guid, &efi_sas_device_path_guid))
		return print_sas(o, n);
	return false;
}

static bool print_ven_msg(struct dp_out *o, const UINT8 *n, UINTN len)
{
	if (len < sizeof(VENDOR_DEVICE_PATH))
		return false;
	if (o->shortcuts && print_msg_shortcut(o, n, len))
		return true;
	return dp_print_vendor(o, n, len, "Msg");
}

static bool print_uart(struct dp_out *o, const UINT8 *n, UINTN len)
{
	static const char *const stop_words[] = {"D", "1", "1.5", "2"};
	UINT64 baud;
	UINT8 data, parity, stop;

	if (len != sizeof(UART_DEVICE_PATH) || dp_rd32(AT(UART_DEVICE_PATH, Reserved)))
		return false;
	baud = dp_rd64(AT(UART_DEVICE_PATH, BaudRate));
	data = *AT(UART_DEVICE_PATH, DataBits);
	parity = *AT(UART_DEVICE_PATH, Parity);
	stop = *AT(UART_DEVICE_PATH, StopBits);
	if (baud)
		dp_out_printf(o, "Uart(%llu,", (unsigned long long)baud);
	else
		dp_out_ascii(o, "Uart(DEFAULT,");
	if (data)
		dp_out_printf(o, "%u,", data);
	else
		dp_out_ascii(o, "DEFAULT,");
	/* Both as keywords or both as integers: the spec forbids mixing the two. */
	if (parity <= 5 && stop <= 3)
		dp_out_printf(o, "%c,%s)", "DNEOMS"[parity], stop_words[stop]);
	else
		dp_out_printf(o, "0x%X,0x%X)", parity, stop);
	return true;
}

static const struct {
	UINT8 class_code;
	const char *name;
} usb_classes[] = {
    {USB_CLASS_AUDIO, "UsbAudio"},
    {USB_CLASS_CDCCONTROL, "UsbCDCControl"},
    {USB_CLASS_HID, "UsbHID"},
    {USB_CLASS_IMAGE, "UsbImage"},
    {USB_CLASS_PRINTER, "UsbPrinter"},
    {USB_CLASS_MASS_STORAGE, "UsbMassStorage"},
    {USB_CLASS_HUB, "UsbHub"},
    {USB_CLASS_CDCDATA, "UsbCDCData"},
    {USB_CLASS_SMART_CARD, "UsbSmartCard"},
    {USB_CLASS_VIDEO, "UsbVideo"},
    {USB_CLASS_DIAGNOSTIC, "UsbDiagnostic"},
    {USB_CLASS_WIRELESS, "UsbWireless"},
};

static const char *const usb_reserved_subclasses[] = {
    [USB_SUBCLASS_FW_UPDATE] = "UsbDeviceFirmwareUpdate",
    [USB_SUBCLASS_IRDA_BRIDGE] = "UsbIrdaBridge",
    [USB_SUBCLASS_TEST] = "UsbTestAndMeasurement",
};

static bool print_usb_class(struct dp_out *o, const UINT8 *n, UINTN len)
{
	UINT16 vid, pid;
	UINT8 cls, sub, proto;

	if (len != sizeof(USB_CLASS_DEVICE_PATH))
		return false;
	vid = dp_rd16(AT(USB_CLASS_DEVICE_PATH, VendorId));
	pid = dp_rd16(AT(USB_CLASS_DEVICE_PATH, ProductId));
	cls = *AT(USB_CLASS_DEVICE_PATH, DeviceClass);
	sub = *AT(USB_CLASS_DEVICE_PATH, DeviceSubClass);
	proto = *AT(USB_CLASS_DEVICE_PATH, DeviceProtocol);
	for (UINTN i = 0; i < ARRAY_SIZE(usb_classes); i++) {
		if (usb_classes[i].class_code == cls) {
			dp_out_printf(o, "%s(0x%X,0x%X,0x%X,0x%X)", usb_classes[i].name, vid, pid,
				      sub, proto);
			return true;
		}
	}
	if (cls == USB_CLASS_RESERVE && sub < ARRAY_SIZE(usb_reserved_subclasses) &&
	    usb_reserved_subclasses[sub]) {
		dp_out_printf(o, "%s(0x%X,0x%X,0x%X)", usb_reserved_subclasses[sub], vid, pid,
			      proto);
		return true;
	}
	dp_out_printf(o, "UsbClass(0x%X,0x%X,0x%X,0x%X,0x%X)", vid, pid, cls, sub, proto);
	return true;
}

static bool print_usb_wwid(struct dp_out *o, const UINT8 *n, UINTN len)
{
	const UINT8 *serial = n + sizeof(USB_WWID_DEVICE_PATH);
	UINTN chars;

	if (len < sizeof(USB_WWID_DEVICE_PATH) || len % 2)
		return false;
	chars = (len - sizeof(USB_WWID_DEVICE_PATH)) / 2;
	if (!dp_text_quoted_safe(serial, chars, 2))
		return false;
	dp_out_printf(o, "UsbWwid(0x%X,0x%X,0x%X,\"", dp_rd16(AT(USB_WWID_DEVICE_PATH, VendorId)),
		      dp_rd16(AT(USB_WWID_DEVICE_PATH, ProductId)),
		      dp_rd16(AT(USB_WWID_DEVICE_PATH, InterfaceNumber)));
	for (UINTN i = 0; i < chars; i++) {
		CHAR16 c = dp_rd16(serial + 2 * i);

		dp_out_char16(o, &c, 1);
	}
	dp_out_ascii(o, "\")");
	return true;
}

static bool print_unit(struct dp_out *o, const UINT8 *n, UINTN len)
{
	if (len != sizeof(DEVICE_LOGICAL_UNIT_DEVICE_PATH))
		return false;
	dp_out_printf(o, "Unit(0x%X)", *AT(DEVICE_LOGICAL_UNIT_DEVICE_PATH, Lun));
	return true;
}

static bool print_sata(struct dp_out *o, const UINT8 *n, UINTN len)
{
	if (len != sizeof(SATA_DEVICE_PATH))
		return false;
	dp_out_printf(o, "Sata(0x%X,0x%X,0x%X)", dp_rd16(AT(SATA_DEVICE_PATH, HBAPortNumber)),
		      dp_rd16(AT(SATA_DEVICE_PATH, PortMultiplierPortNumber)),
		      dp_rd16(AT(SATA_DEVICE_PATH, Lun)));
	return true;
}

static bool print_sas_ex(struct dp_out *o, const UINT8 *n, UINTN len)
{
	if (len != sizeof(SASEX_DEVICE_PATH))
		return false;
	dp_out_ascii(o, "SasEx(");
	dp_out_be8(o, AT(SASEX_DEVICE_PATH, SasAddress));
	dp_out_ascii(o, ",");
	dp_out_be8(o, AT(SASEX_DEVICE_PATH, Lun));
	dp_out_printf(o, ",0x%X,", dp_rd16(AT(SASEX_DEVICE_PATH, RelativeTargetPort)));
	dp_print_sas_topology(o, dp_rd16(AT(SASEX_DEVICE_PATH, DeviceTopology)));
	dp_out_ascii(o, ")");
	return true;
}

static bool print_nvme(struct dp_out *o, const UINT8 *n, UINTN len)
{
	const UINT8 *eui = AT(NVME_NAMESPACE_DEVICE_PATH, NamespaceUuid);

	if (len != sizeof(NVME_NAMESPACE_DEVICE_PATH))
		return false;
	dp_out_printf(o, "NVMe(0x%X,",
		      (unsigned)dp_rd32(AT(NVME_NAMESPACE_DEVICE_PATH, NamespaceId)));
	/* EUI-64 shown byte 7 first (10.3.4.22). */
	for (int i = 7; i >= 0; i--)
		dp_out_printf(o, i ? "%02X-" : "%02X)", eui[i]);
	return true;
}

static bool print_ufs(struct dp_out *o, const UINT8 *n, UINTN len)
{
	if (len != sizeof(UFS_DEVICE_PATH))
		return false;
	dp_out_printf(o, "UFS(0x%X,0x%X)", *AT(UFS_DEVICE_PATH, Pun), *AT(UFS_DEVICE_PATH, Lun));
	return true;
}

/* SD(slot) and eMMC(slot) share one layout. */
static bool print_slot(struct dp_out *o, const UINT8 *n, UINTN len)
{
	if (len != sizeof(SD_DEVICE_PATH))
		return false;
	dp_out_printf(o, "%s(0x%X)", n[1] == MSG_SD_DP ? "SD" : "eMMC",
		      *AT(SD_DEVICE_PATH, SlotNumber));
	return true;
}

/* clang-format off */
const struct dp_printer_entry dp_printers_msg[] = {
	{MESSAGING_DEVICE_PATH, MSG_ATAPI_DP, print_ata},
	{MESSAGING_DEVICE_PATH, MSG_SCSI_DP, print_scsi},
	{MESSAGING_DEVICE_PATH, MSG_FIBRECHANNEL_DP, print_fibre},
	{MESSAGING_DEVICE_PATH, MSG_FIBRECHANNELEX_DP, print_fibre_ex},
	{MESSAGING_DEVICE_PATH, MSG_1394_DP, print_1394},
	{MESSAGING_DEVICE_PATH, MSG_USB_DP, print_usb},
	{MESSAGING_DEVICE_PATH, MSG_I2O_DP, print_i2o},
	{MESSAGING_DEVICE_PATH, MSG_INFINIBAND_DP, print_infiniband},
	{MESSAGING_DEVICE_PATH, MSG_VENDOR_DP, print_ven_msg},
	{MESSAGING_DEVICE_PATH, MSG_UART_DP, print_uart},
	{MESSAGING_DEVICE_PATH, MSG_USB_CLASS_DP, print_usb_class},
	{MESSAGING_DEVICE_PATH, MSG_USB_WWID_DP, print_usb_wwid},
	{MESSAGING_DEVICE_PATH, MSG_DEVICE_LOGICAL_UNIT_DP, print_unit},
	{MESSAGING_DEVICE_PATH, MSG_SATA_DP, print_sata},
	{MESSAGING_DEVICE_PATH, MSG_SASEX_DP, print_sas_ex},
	{MESSAGING_DEVICE_PATH, MSG_NVME_NAMESPACE_DP, print_nvme},
	{MESSAGING_DEVICE_PATH, MSG_UFS_DP, print_ufs},
	{MESSAGING_DEVICE_PATH, MSG_SD_DP, print_slot},
	{MESSAGING_DEVICE_PATH, MSG_EMMC_DP, print_slot},
	{0, 0, NULL},
};
/* clang-format on */
