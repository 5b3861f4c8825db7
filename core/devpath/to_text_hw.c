/* Text of hardware (10.6.1.2) and ACPI (10.6.1.3) device nodes. */
#include "devpath_internal.h"

#define AT(T, f) (n + offsetof(T, f))

static bool print_pci(struct dp_out *o, const UINT8 *n, UINTN len)
{
	if (len != sizeof(PCI_DEVICE_PATH))
		return false;
	dp_out_printf(o, "Pci(0x%X,0x%X)", *AT(PCI_DEVICE_PATH, Device),
		      *AT(PCI_DEVICE_PATH, Function));
	return true;
}

static bool print_pccard(struct dp_out *o, const UINT8 *n, UINTN len)
{
	if (len != sizeof(PCCARD_DEVICE_PATH))
		return false;
	dp_out_printf(o, "PcCard(0x%X)", *AT(PCCARD_DEVICE_PATH, FunctionNumber));
	return true;
}

static bool print_memmap(struct dp_out *o, const UINT8 *n, UINTN len)
{
	if (len != sizeof(MEMMAP_DEVICE_PATH))
		return false;
	dp_out_printf(o, "MemoryMapped(0x%X,0x%llX,0x%llX)",
		      (unsigned)dp_rd32(AT(MEMMAP_DEVICE_PATH, MemoryType)),
		      (unsigned long long)dp_rd64(AT(MEMMAP_DEVICE_PATH, StartingAddress)),
		      (unsigned long long)dp_rd64(AT(MEMMAP_DEVICE_PATH, EndingAddress)));
	return true;
}

static bool print_ven_hw(struct dp_out *o, const UINT8 *n, UINTN len)
{
	return dp_print_vendor(o, n, len, "Hw");
}

static bool print_ctrl(struct dp_out *o, const UINT8 *n, UINTN len)
{
	if (len != sizeof(CONTROLLER_DEVICE_PATH))
		return false;
	dp_out_printf(o, "Ctrl(0x%X)",
		      (unsigned)dp_rd32(AT(CONTROLLER_DEVICE_PATH, ControllerNumber)));
	return true;
}

static bool print_bmc(struct dp_out *o, const UINT8 *n, UINTN len)
{
	if (len != sizeof(BMC_DEVICE_PATH))
		return false;
	dp_out_printf(o, "BMC(0x%X,0x%llX)", *AT(BMC_DEVICE_PATH, InterfaceType),
		      (unsigned long long)dp_rd64(AT(BMC_DEVICE_PATH, BaseAddress)));
	return true;
}

/* The PNP IDs with a node name of their own (10.6.1.3). */
static const char *acpi_name(UINT32 hid)
{
	switch (hid) {
	case EFI_PNP_ID(0x0a03):
		return "PciRoot";
	case EFI_PNP_ID(0x0a08):
		return "PcieRoot";
	case EFI_PNP_ID(0x0604):
		return "Floppy";
	case EFI_PNP_ID(0x0301):
		return "Keyboard";
	case EFI_PNP_ID(0x0501):
		return "Serial";
	case EFI_PNP_ID(0x0401):
		return "ParallelPort";
	default:
		return NULL;
	}
}

static bool print_acpi(struct dp_out *o, const UINT8 *n, UINTN len)
{
	UINT32 hid, uid;
	const char *name;

	if (len != sizeof(ACPI_HID_DEVICE_PATH))
		return false;
	hid = dp_rd32(AT(ACPI_HID_DEVICE_PATH, HID));
	uid = dp_rd32(AT(ACPI_HID_DEVICE_PATH, UID));
	name = acpi_name(hid);
	if (name) {
		dp_out_printf(o, "%s(0x%X)", name, (unsigned)uid);
	} else {
		dp_out_ascii(o, "Acpi(");
		dp_out_eisa(o, hid);
		dp_out_printf(o, ",0x%X)", (unsigned)uid);
	}
	return true;
}

/* The three strings of an expanded ACPI node, in binary order HID, UID, CID. */
struct acpi_ex {
	UINT32 hid, uid, cid;
	const UINT8 *str[3];
	UINTN len[3];
};

enum { ACPI_HIDSTR, ACPI_UIDSTR, ACPI_CIDSTR };

/* Splits the node; false unless the three strings fill it exactly and are text-safe. */
static bool acpi_ex_split(const UINT8 *n, UINTN len, struct acpi_ex *x)
{
	UINTN pos = sizeof(ACPI_EXTENDED_HID_DEVICE_PATH);

	x->hid = dp_rd32(AT(ACPI_EXTENDED_HID_DEVICE_PATH, HID));
	x->uid = dp_rd32(AT(ACPI_EXTENDED_HID_DEVICE_PATH, UID));
	x->cid = dp_rd32(AT(ACPI_EXTENDED_HID_DEVICE_PATH, CID));
	for (int i = 0; i < 3; i++) {
		UINTN k = 0;

		while (pos + k < len && n[pos + k])
			k++;
		if (pos + k >= len || !dp_text_arg_safe(n + pos, k, 1))
			return false;
		x->str[i] = n + pos;
		x->len[i] = k;
		pos += k + 1;
	}
	return pos == len;
}

/* Writes a string field if present, else its numeric field (EISA ID or integer). */
static void print_ex_field(struct dp_out *o, const struct acpi_ex *x, int which, UINT32 num,
			   bool eisa)
{
	if (x->len[which])
		dp_out_bytes(o, x->str[which], x->len[which]);
	else if (eisa)
		dp_out_eisa(o, num);
	else
		dp_out_printf(o, "0x%X", (unsigned)num);
}

/* Display-only forms: PciRoot/PcieRoot(UID|UIDSTR), else AcpiEx(HID|HIDSTR,CID|CIDSTR,UID|UIDSTR).
 */
static void print_acpi_ex_display(struct dp_out *o, const struct acpi_ex *x)
{
	bool hid_num = !x->len[ACPI_HIDSTR], cid_num = !x->len[ACPI_CIDSTR];
	bool hid_pcie = hid_num && x->hid == EFI_PNP_ID(0x0a08);
	bool pci = (hid_num && x->hid == EFI_PNP_ID(0x0a03)) ||
		   (cid_num && x->cid == EFI_PNP_ID(0x0a03) && !hid_pcie);
	bool pcie = hid_pcie || (cid_num && x->cid == EFI_PNP_ID(0x0a08));

	if (pci || pcie) {
		dp_out_ascii(o, pci ? "PciRoot(" : "PcieRoot(");
	} else {
		dp_out_ascii(o, "AcpiEx(");
		print_ex_field(o, x, ACPI_HIDSTR, x->hid, true);
		dp_out_ascii(o, ",");
		print_ex_field(o, x, ACPI_CIDSTR, x->cid, true);
		dp_out_ascii(o, ",");
	}
	print_ex_field(o, x, ACPI_UIDSTR, x->uid, false);
	dp_out_ascii(o, ")");
}

static bool print_acpi_ex(struct dp_out *o, const UINT8 *n, UINTN len)
{
	struct acpi_ex x;

	if (len < sizeof(ACPI_EXTENDED_HID_DEVICE_PATH) + 3 || !acpi_ex_split(n, len, &x))
		return false;
	if (o->display_only) {
		print_acpi_ex_display(o, &x);
		return true;
	}
	bool expanded_uid =
	    !x.len[ACPI_HIDSTR] && !x.len[ACPI_CIDSTR] && x.len[ACPI_UIDSTR] && !x.uid;

	dp_out_ascii(o, expanded_uid ? "AcpiExp(" : "AcpiEx(");
	dp_out_eisa(o, x.hid);
	dp_out_ascii(o, ",");
	dp_out_eisa(o, x.cid);
	dp_out_ascii(o, ",");
	if (!expanded_uid) {
		dp_out_printf(o, "0x%X,", (unsigned)x.uid);
		dp_out_bytes(o, x.str[ACPI_HIDSTR], x.len[ACPI_HIDSTR]);
		dp_out_ascii(o, ",");
		dp_out_bytes(o, x.str[ACPI_CIDSTR], x.len[ACPI_CIDSTR]);
		dp_out_ascii(o, ",");
	}
	dp_out_bytes(o, x.str[ACPI_UIDSTR], x.len[ACPI_UIDSTR]);
	dp_out_ascii(o, ")");
	return true;
}

static bool print_acpi_adr(struct dp_out *o, const UINT8 *n, UINTN len)
{
	if (len < sizeof(ACPI_ADR_DEVICE_PATH) || len % 4)
		return false;
	dp_out_ascii(o, "AcpiAdr(");
	for (UINTN pos = offsetof(ACPI_ADR_DEVICE_PATH, ADR); pos < len; pos += 4)
		dp_out_printf(o, "%s0x%X", pos > 4 ? "," : "", (unsigned)dp_rd32(n + pos));
	dp_out_ascii(o, ")");
	return true;
}

/* The spec gives this node no text form; NVDIMM(handle) is Ember's. */
static bool print_nvdimm(struct dp_out *o, const UINT8 *n, UINTN len)
{
	if (len != sizeof(NVDIMM_DEVICE_PATH))
		return false;
	dp_out_printf(o, "NVDIMM(0x%X)",
		      (unsigned)dp_rd32(AT(NVDIMM_DEVICE_PATH, NFITDeviceHandle)));
	return true;
}

/* clang-format off */
const struct dp_printer_entry dp_printers_hw[] = {
	{HARDWARE_DEVICE_PATH, HW_PCI_DP, print_pci},
	{HARDWARE_DEVICE_PATH, HW_PCCARD_DP, print_pccard},
	{HARDWARE_DEVICE_PATH, HW_MEMMAP_DP, print_memmap},
	{HARDWARE_DEVICE_PATH, HW_VENDOR_DP, print_ven_hw},
	{HARDWARE_DEVICE_PATH, HW_CONTROLLER_DP, print_ctrl},
	{HARDWARE_DEVICE_PATH, HW_BMC_DP, print_bmc},
	{ACPI_DEVICE_PATH, ACPI_DP, print_acpi},
	{ACPI_DEVICE_PATH, ACPI_EXTENDED_DP, print_acpi_ex},
	{ACPI_DEVICE_PATH, ACPI_ADR_DP, print_acpi_adr},
	{ACPI_DEVICE_PATH, ACPI_NVDIMM_DP, print_nvdimm},
	{0, 0, NULL},
};
/* clang-format on */
