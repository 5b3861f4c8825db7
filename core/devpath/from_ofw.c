/* OpenFirmware device paths as QEMU writes them in fw_cfg "bootorder" (`bootindex=` on
 * devices, -boot order=): "/pci@i0cf8/scsi@4/disk@0,0",
 * "/pci@i0cf8/pci8086,2922@1f,2/drive@1/disk@0", "/pci@i0cf8/ide@1,1/drive@1/disk@0". Each
 * becomes the prefix of the UEFI device paths it stands for: PciRoot(0x0)/Pci(0x4,0x0),
 * .../Pci(0x1F,0x2)/Sata(0x1,0xFFFF,0x0), .../Pci(0x1,0x1)/Ata(Secondary,Master,0x0) (on
 * an IDE controller drive@ is the channel, disk@ the drive on it). A device on a USB host
 * controller ("/pci@i0cf8/usb@3/storage@1/channel@0/disk@0,0", QEMU numbering its ports from
 * 1) becomes .../Pci(0x3,0x0)/USB(0x0,0x0): what lies below (the SCSI LUN of a stick) is
 * inside the device. A NIC ("/pci@i0cf8/ethernet@3/ethernet-phy@0": QEMU names the PHY
 * below it) becomes its PCI function, the prefix of its MAC() child's PXE option. A disk on
 * a SCSI controller ("/pci@i0cf8/scsi@2/channel@0/disk@1,3": target 1, LUN 3) becomes
 * .../Pci(0x2,0x0)/Scsi(0x1,0x3); an NVMe namespace ("/pci@i0cf8/pci1b36,0010@3/
 * namespace@1,0") its controller's function (the NVMe() node carries an EUI-64 the path
 * does not give).
 * The root is the host bridge: "/pci@i0cf8" on x86-64 (its I/O ports), "/pci@ffffffffffffffff"
 * on AArch64's virt (QEMU names a bridge on the system bus by its first MMIO region, which
 * virt maps through an alias, so the address is "unmapped"); both are PciRoot(0x0). Outside
 * data: fuzzed (tests/fuzz/fuzz_ofw_path.c). */
#define LOG_PREFIX "ofw-path: "
#include <ember/core/core.h>
#include <ember/core/devpath.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>

#define MAX_NODES 8

static bool parse_hex(const char **p, const char *end, UINT32 *value)
{
	const char *start = *p;
	UINT32 v = 0;

	while (*p < end) {
		char c = **p;
		UINT32 d = c >= '0' && c <= '9'	  ? (UINT32)(c - '0')
			   : c >= 'a' && c <= 'f' ? (UINT32)(c - 'a' + 10)
						  : 16;
		if (d == 16 || v > 0x0fffffff)
			break;
		v = v * 16 + d;
		(*p)++;
	}
	*value = v;
	return *p > start;
}

/* One OFW node "name@unit[,sub]" between p and end: its name and numbers. */
static bool parse_node(const char *p, const char *end, const char **name, size_t *name_len,
		       UINT32 *unit, UINT32 *sub)
{
	const char *at = p;

	while (at < end && *at != '@')
		at++;
	if (at == end)
		return false;
	*name = p;
	*name_len = (size_t)(at - p);
	at++;
	*sub = 0;
	if (!parse_hex(&at, end, unit))
		return false;
	if (at < end && *at == ',') {
		at++;
		parse_hex(&at, end, sub);
	}
	return true;
}

static bool name_is(const char *name, size_t len, const char *want)
{
	return len == str8_len(want) && str8_ncmp(name, want, len) == 0;
}

/* Ata(channel,drive,0): a drive on an IDE channel. */
static EFI_DEVICE_PATH_PROTOCOL *append_ata(const EFI_DEVICE_PATH_PROTOCOL *path, UINT32 channel,
					    UINT32 drive)
{
	ATAPI_DEVICE_PATH ata = {
	    {MESSAGING_DEVICE_PATH, MSG_ATAPI_DP, {sizeof(ATAPI_DEVICE_PATH), 0}},
	    (UINT8)channel,
	    (UINT8)drive,
	    0};
	EFI_DEVICE_PATH_PROTOCOL *next = dp_append_node(path, &ata.Header);

	if (!next)
		log_debug("no memory for the device path\n");
	return next;
}

/* USB(port,0): the device on a root port of a USB host controller, interface 0. */
static EFI_DEVICE_PATH_PROTOCOL *append_usb(const EFI_DEVICE_PATH_PROTOCOL *path, UINT32 port)
{
	USB_DEVICE_PATH usb = {{MESSAGING_DEVICE_PATH, MSG_USB_DP, {sizeof(USB_DEVICE_PATH), 0}},
			       (UINT8)(port - 1),
			       0};
	EFI_DEVICE_PATH_PROTOCOL *next = dp_append_node(path, &usb.Header);

	if (!next)
		log_debug("no memory for the device path\n");
	return next;
}

/* Scsi(target,lun): a disk on a SCSI controller's channel 0. */
static EFI_DEVICE_PATH_PROTOCOL *append_scsi(const EFI_DEVICE_PATH_PROTOCOL *path, UINT32 target,
					     UINT32 lun)
{
	SCSI_DEVICE_PATH scsi = {
	    {MESSAGING_DEVICE_PATH, MSG_SCSI_DP, {sizeof(SCSI_DEVICE_PATH), 0}},
	    (UINT16)target,
	    (UINT16)lun};
	EFI_DEVICE_PATH_PROTOCOL *next = dp_append_node(path, &scsi.Header);

	if (!next)
		log_debug("no memory for the device path\n");
	return next;
}

/* The length of the host bridge's node at the start of line ("/pci@i0cf8" on x86-64,
 * "/pci@ffffffffffffffff" on virt), or 0 when it starts with neither. */
static size_t root_length(const char *line, const char *end)
{
	static const char *const roots[] = {"/pci@i0cf8", "/pci@ffffffffffffffff"};

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		size_t len = str8_len(roots[i]);
		if ((size_t)(end - line) >= len && str8_ncmp(line, roots[i], len) == 0 &&
		    (line + len == end || line[len] == '/'))
			return len;
	}
	return 0;
}

/* The UEFI node of one OFW node appended to path (a new path; NULL without memory): a
 * drive behind a PCI function is a Sata() node, anything else a PCI function. */
static EFI_DEVICE_PATH_PROTOCOL *append_node(const EFI_DEVICE_PATH_PROTOCOL *path, bool drive,
					     UINT32 unit, UINT32 sub)
{
	EFI_DEVICE_PATH_PROTOCOL *next;

	if (drive) {
		SATA_DEVICE_PATH sata = {
		    {MESSAGING_DEVICE_PATH, MSG_SATA_DP, {sizeof(SATA_DEVICE_PATH), 0}},
		    (UINT16)unit,
		    0xffff,
		    0};
		next = dp_append_node(path, &sata.Header);
	} else {
		PCI_DEVICE_PATH pci = {
		    {HARDWARE_DEVICE_PATH, HW_PCI_DP, {sizeof(PCI_DEVICE_PATH), 0}},
		    (UINT8)sub,
		    (UINT8)unit};
		next = dp_append_node(path, &pci.Header);
	}
	if (!next)
		log_debug("no memory for the device path\n");
	return next;
}

/* The node for a medium (disk@, cdrom@) appended to path: Ata() on an IDE channel, Scsi()
 * on a SCSI controller's channel 0, nothing (path itself) elsewhere: the device above it is
 * what counts. Frees path when it makes a new one. */
static EFI_DEVICE_PATH_PROTOCOL *append_medium(EFI_DEVICE_PATH_PROTOCOL *path, UINT32 ide_channel,
					       UINT32 scsi_channel, UINT32 unit, UINT32 sub)
{
	EFI_DEVICE_PATH_PROTOCOL *next;

	if (ide_channel < 2 && unit < 2)
		next = append_ata(path, ide_channel, unit);
	else if (scsi_channel == 0 && unit <= 0xffff && sub <= 0xffff)
		next = append_scsi(path, unit, sub);
	else
		return path;
	pool_free(path);
	return next;
}

EFI_DEVICE_PATH_PROTOCOL *dp_from_ofw(const char *line, const char *end)
{
	size_t root = root_length(line, end);
	EFI_DEVICE_PATH_PROTOCOL *path = dp_from_text(u"PciRoot(0x0)"), *next;
	const char *p = line + root;
	bool after_pci = false, after_ide = false, after_usb = false, drive;
	/* The channel of a drive@ on an IDE controller, or of a SCSI controller's channel@,
	 * until the disk@ below it. */
	UINT32 ide_channel = UINT32_MAX, scsi_channel = UINT32_MAX;

	if (!root) {
		log_debug("\"%.*s\": not under a PCI host bridge\n", (int)(end - line), line);
		goto none;
	}
	for (int n = 0; n < MAX_NODES && p < end && *p == '/' && path; n++) {
		const char *node = ++p, *name;
		size_t name_len;
		UINT32 unit, sub;
		while (p < end && *p != '/')
			p++;
		if (!parse_node(node, p, &name, &name_len, &unit, &sub)) {
			log_debug("\"%.*s\": no unit address\n", (int)(p - node), node);
			break;
		}
		if (name_is(name, name_len, "disk") || name_is(name, name_len, "cdrom")) {
			path = append_medium(path, ide_channel, scsi_channel, unit, sub);
			break;
		}
		if (after_pci && name_is(name, name_len, "ethernet-phy"))
			break; /* the NIC's PHY: the NIC above it is what boots */
		if (after_pci && name_is(name, name_len, "namespace"))
			break; /* an NVMe namespace: its controller */
		if (after_usb) {
			/* Ports 1-255; hubs below the root port are not followed. */
			if (unit >= 1 && unit <= 255) {
				next = append_usb(path, unit);
				pool_free(path);
				path = next;
			}
			break;
		}
		if (after_pci && scsi_channel == UINT32_MAX && name_is(name, name_len, "channel")) {
			scsi_channel = unit; /* the SCSI bus: the disk on it comes next */
			continue;
		}
		if (scsi_channel != UINT32_MAX)
			break; /* not a disk on the SCSI bus: the controller */
		drive = name_is(name, name_len, "drive") && after_pci;
		if (drive && after_ide) {
			ide_channel = unit; /* the drive on the channel comes with disk@ */
			continue;
		}
		after_ide = name_is(name, name_len, "ide");
		after_usb = !drive && name_is(name, name_len, "usb");
		if (!drive && (unit >= 32 || sub >= 8)) {
			log_debug("\"%.*s\": no PCI device and function\n", (int)(p - node), node);
			break;
		}
		next = append_node(path, drive, unit, sub);
		after_pci |= !drive;
		pool_free(path);
		path = next;
	}
	if (path && after_pci)
		return path;
	if (path)
		log_debug("\"%.*s\": names no PCI device\n", (int)(end - line), line);
none:
	pool_free(path);
	return NULL;
}
