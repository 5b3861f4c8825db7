/* Device path text conversions: every node type of UEFI 2.10 10.6.1 through text -> binary ->
 * text -> binary, canonical output for alternate input forms, display-only and shortcut forms,
 * and malformed text. */
#include <stdio.h>
#include <string.h>

#include "support/test.h"
#include <ember/core/core.h>
#include <ember/core/devpath.h>

#include "devpath_text_check.h"

struct case_text {
	const CHAR16 *in, *out; /* out NULL: same as in */
};

/* Text -> binary -> canonical text (expected), and the binary survives text again. */
static void check_cases(const struct case_text *cases, size_t n, bool display, bool shortcuts)
{
	for (size_t i = 0; i < n; i++)
		dpt_check_round_trip(cases[i].in, cases[i].out ? cases[i].out : cases[i].in,
				     display, shortcuts);
}

#define GUID1 u"93E34C7E-B50E-11DF-9223-2443DFD72085"
#define GUID2 u"15E39A00-1DD2-1000-8D7F-00A0C92408FC"

TEST(devpath_text_hardware)
{
	static const struct case_text cases[] = {
	    {u"Pci(0x1F,0x2)"},
	    {u"Pci(31,2)", u"Pci(0x1F,0x2)"},
	    {u"Pci(Function=2,Device=0x1F)", u"Pci(0x1F,0x2)"},
	    {u"pci( 0x1f , 2 )", u"Pci(0x1F,0x2)"},
	    {u"PcCard(0x3)"},
	    {u"MemoryMapped(0xB,0x900000,0x900FFF)"},
	    {u"VenHw(" GUID1 u")"},
	    {u"VenHw(" GUID1 u",0102a0FF)", u"VenHw(" GUID1 u",0102A0FF)"},
	    {u"Ctrl(0x0)"},
	    {u"Ctrl(7)", u"Ctrl(0x7)"},
	    {u"BMC(0x1,0xCA2)"},
	    {u"HardwarePath(9,DEADBEEF)"},
	    {u"HardwarePath(1,1F02)", u"Pci(0x2,0x1F)"},
	    {u"Path(1,1,1F02)", u"Pci(0x2,0x1F)"},
	    {u"Path(200,3,0102)"},
	    {u"Path(127,2)"},
	    {u"AcpiPath(9,01)"},
	    {u"Msg(100)"},
	    {u"MediaPath(77,00)"},
	    {u"BbsPath(2)"},
	};
	check_cases(cases, sizeof(cases) / sizeof(cases[0]), false, true);
}

TEST(devpath_text_acpi)
{
	static const struct case_text cases[] = {
	    {u"PciRoot(0x0)"},
	    {u"PciRoot()", u"PciRoot(0x0)"},
	    {u"Acpi(PNP0A03,0)", u"PciRoot(0x0)"},
	    {u"Acpi(PNP0A03)", u"PciRoot(0x0)"},
	    {u"Acpi(pnp0a03,0x2)", u"PciRoot(0x2)"},
	    {u"PcieRoot(0x1)"},
	    {u"Acpi(PNP0A08,1)", u"PcieRoot(0x1)"},
	    {u"Floppy(0x0)"},
	    {u"Floppy()", u"Floppy(0x0)"},
	    {u"Keyboard(0x0)"},
	    {u"Serial(0x1)"},
	    {u"Acpi(PNP0501,1)", u"Serial(0x1)"},
	    {u"ParallelPort(0x0)"},
	    {u"Acpi(HWP0002,0x5)"},
	    {u"Acpi(PNP0C0A,0x0)"},
	    {u"Acpi(0x0000FFFF,0)", u"Acpi(0x0000FFFF,0x0)"},
	    {u"AcpiEx(HWP0002,PNP0A03,0x0,,,)"},
	    {u"AcpiEx(HWP0002,PNP0A03,0)", u"AcpiEx(HWP0002,PNP0A03,0x0,,,)"},
	    {u"AcpiEx(HWP0002,CID=PNP0A03)", u"AcpiEx(HWP0002,PNP0A03,0x0,,,)"},
	    {u"AcpiEx(0,0,0x0,ACPI0004,,UID1)"},
	    {u"AcpiEx(PNP0A08,PNP0A03,0x3,,,)"},
	    {u"AcpiExp(PNP0A03,0,UID00)"},
	    {u"AcpiExp(PNP0A03,PNP0A08,root2)"},
	    {u"AcpiAdr(0x80010100)"},
	    {u"AcpiAdr(0x80010100,0x80010200)"},
	    {u"AcpiAdr(1, 2)", u"AcpiAdr(0x1,0x2)"},
	    {u"NVDIMM(0x1)"},
	};
	check_cases(cases, sizeof(cases) / sizeof(cases[0]), false, true);
}

TEST(devpath_text_messaging_storage)
{
	static const struct case_text cases[] = {
	    {u"Ata(Primary,Master,0x0)"},
	    {u"Ata(1,1,3)", u"Ata(Secondary,Slave,0x3)"},
	    {u"Ata(0x2,Master,0x0)"},
	    {u"Scsi(0x1,0x0)"},
	    {u"Fibre(0x1234,0x0)"},
	    {u"FibreEx(0x0001020304050607,0x0001020304050607)"},
	    {u"FibreEx(0x0001020304050607, 0x1)",
	     u"FibreEx(0x0001020304050607,0x0000000000000001)"},
	    {u"I1394(0123456789ABCDEF)"},
	    {u"USB(0x1,0x0)"},
	    {u"USB(1,0)", u"USB(0x1,0x0)"},
	    {u"I2O(0x2A)"},
	    {u"Infiniband(0x1," GUID1 u",0x1,0x2,0x3)"},
	    {u"SasEx(0x0102030405060708,0x0000000000000000,0x0,NoTopology,0,0,0)"},
	    {u"SasEx(0x0102030405060708)",
	     u"SasEx(0x0102030405060708,0x0000000000000000,0x0,NoTopology,0,0,0)"},
	    {u"SasEx(0x1,0x2,0x3,SATA,External,Expanded,0x4)",
	     u"SasEx(0x0000000000000001,0x0000000000000002,0x3,SATA,External,Expanded,0x4)"},
	    {u"SasEx(0x1,0x2,0x3,0x10)",
	     u"SasEx(0x0000000000000001,0x0000000000000002,0x3,0x10,0,0,0)"},
	    {u"UsbWwid(0x46F4,0x1,0x0,\"ABC123\")"},
	    {u"UsbWwid(0x46F4,0x1,0x0,ABC123)", u"UsbWwid(0x46F4,0x1,0x0,\"ABC123\")"},
	    {u"UsbWwid(0x46F4,0x1,0x0,\"A,B (1)\")"},
	    {u"Unit(0x1)"},
	    {u"Sata(0x0,0xFFFF,0x0)"},
	    {u"Sata(0,,0)", u"Sata(0x0,0xFFFF,0x0)"},
	    {u"NVMe(0x1,00-00-00-00-00-00-00-00)"},
	    {u"NVMe(0x1,01-23-45-67-89-AB-CD-EF)"},
	    {u"NVMe(1,1-2-3-4-5-6-7-8)", u"NVMe(0x1,01-02-03-04-05-06-07-08)"},
	    {u"UFS(0x0,0x1)"},
	    {u"SD(0x0)"},
	    {u"SD()", u"SD(0x0)"},
	    {u"eMMC(0x1)"},
	};
	check_cases(cases, sizeof(cases) / sizeof(cases[0]), false, true);
}

TEST(devpath_text_messaging_serial_usb)
{
	static const struct case_text cases[] = {
	    {u"VenMsg(" GUID1 u",AA)"},
	    {u"VenPcAnsi()"},
	    {u"VenVt100()"},
	    {u"VenVt100Plus()"},
	    {u"VenUtf8()"},
	    {u"DebugPort()"},
	    {u"UartFlowCtrl(XonXoff)"},
	    {u"UartFlowCtrl(None)"},
	    {u"UartFlowCtrl(1)", u"UartFlowCtrl(Hardware)"},
	    {u"UartFlowCtrl(5)", u"VenMsg(37499A9D-542F-4C89-A026-35DA142094E4,05000000)"},
	    {u"SAS(0x31000004CF13F6BD,0x0,0x0,NoTopology,0,0,0,0x0)"},
	    {u"SAS(0x31000004CF13F6BD, 0)",
	     u"SAS(0x31000004CF13F6BD,0x0,0x0,NoTopology,0,0,0,0x0)"},
	    {u"Sas(0x31000004CF13F6BD,0x0,0x1,SATA,External,Expanded,0x3,0x0)",
	     u"SAS(0x31000004CF13F6BD,0x0,0x1,SATA,External,Expanded,0x3,0x0)"},
	    {u"SAS(0x1,0x0,0x0,SAS,Internal,Direct,0,0x0)"},
	    {u"SAS(0x1,0x0,0x0,SAS,Internal,Direct)",
	     u"SAS(0x1,0x0,0x0,SAS,Internal,Direct,0,0x0)"},
	    {u"Uart(115200,8,N,1)"},
	    {u"Uart()", u"Uart(115200,8,D,D)"},
	    {u"Uart(DEFAULT,DEFAULT,D,D)"},
	    {u"Uart(9600,7,E,1.5)"},
	    {u"Uart(38400,8,O,2)"},
	    {u"Uart(9600,8,9,1)", u"Uart(9600,8,0x9,0x1)"},
	    {u"UsbClass(0xFFFF,0xFFFF,0xFF,0xFF,0xFF)"},
	    {u"UsbClass()", u"UsbClass(0xFFFF,0xFFFF,0xFF,0xFF,0xFF)"},
	    {u"UsbClass(0x1,0x2,0x3,0x1,0x1)", u"UsbHID(0x1,0x2,0x1,0x1)"},
	    {u"UsbAudio(0x1,0x2,0x3,0x4)"},
	    {u"UsbCDCControl(0x1,0x2,0x3,0x4)"},
	    {u"UsbHID(0x1,0x2,0x3,0x4)"},
	    {u"UsbImage(0x1,0x2,0x3,0x4)"},
	    {u"UsbPrinter(0x1,0x2,0x3,0x4)"},
	    {u"UsbMassStorage(0x1,0x2,0x6,0x50)"},
	    {u"UsbMassStorage()", u"UsbMassStorage(0xFFFF,0xFFFF,0xFF,0xFF)"},
	    {u"UsbHub(0x1,0x2,0x3,0x4)"},
	    {u"UsbCDCData(0x1,0x2,0x3,0x4)"},
	    {u"UsbSmartCard(0x1,0x2,0x3,0x4)"},
	    {u"UsbVideo(0x1,0x2,0x3,0x4)"},
	    {u"UsbDiagnostic(0x1,0x2,0x3,0x4)"},
	    {u"UsbWireless(0x1,0x2,0x3,0x4)"},
	    {u"UsbDeviceFirmwareUpdate(0x1,0x2,0x3)"},
	    {u"UsbIrdaBridge()", u"UsbIrdaBridge(0xFFFF,0xFFFF,0xFF)"},
	    {u"UsbTestAndMeasurement(0x1,0x2,0x3)"},
	    {u"UsbClass(0x1,0x2,0xFE,0x4,0x5)"},
	};
	check_cases(cases, sizeof(cases) / sizeof(cases[0]), false, true);
}

#define ZERO6 u"0000:0000:0000:0000:0000:0000:0000:0000"

TEST(devpath_text_network)
{
	static const struct case_text cases[] = {
	    {u"MAC(525400123456,0x1)"},
	    {u"MAC(525400123456)", u"MAC(525400123456,0x0)"},
	    {u"MAC(0102,0x6)",
	     u"MAC(0102000000000000000000000000000000000000000000000000000000000000,0x6)"},
	    {u"IPv4(192.168.0.100,TCP,Static,192.168.0.1,192.168.0.254,255.255.255.0)"},
	    {u"IPv4(192.168.0.100)", u"IPv4(192.168.0.100,UDP,DHCP,0.0.0.0,0.0.0.0,0.0.0.0)"},
	    {u"IPv4(10.0.0.1:3260,TCP,Static,10.0.0.2)",
	     u"IPv4(10.0.0.1:3260,TCP,Static,10.0.0.2,0.0.0.0,0.0.0.0)"},
	    {u"IPv4(10.0.0.1,0x2F,1,10.0.0.2:99)",
	     u"IPv4(10.0.0.1,0x2F,Static,10.0.0.2:99,0.0.0.0,0.0.0.0)"},
	    {u"IPv6(2001:4898:000A:1005:95A6:EE6C:BED3:4859,TCP,Static,"
	     u"2001:4898:000A:1005:0215:17FF:FE21:5593,0x40," ZERO6 u")"},
	    {u"IPv6(2001:db8::1)",
	     u"IPv6(2001:0DB8:0000:0000:0000:0000:0000:0001,UDP,Static," ZERO6 u",0x0," ZERO6 u")"},
	    {u"IPv6([::1]:80,TCP,StatelessAutoConfigure,::ffff:10.0.0.1)",
	     u"IPv6([0000:0000:0000:0000:0000:0000:0000:0001]:80,TCP,StatelessAutoConfigure,"
	     u"0000:0000:0000:0000:0000:FFFF:0A00:0001,0x0," ZERO6 u")"},
	    {u"iSCSI(iqn.1991-05.com.microsoft:iscsitarget-iscsidisk-target,0x1,0x0000000000000000,"
	     u"None,None,None,TCP)"},
	    {u"iSCSI(iqn.x,1,0)", u"iSCSI(iqn.x,0x1,0x0000000000000000,None,None,None,TCP)"},
	    {u"iSCSI(iqn.x,0x1,0x0102030405060708,CRC32C,CRC32C,CHAP_UNI,TCP)"},
	    {u"iSCSI(iqn.x,0x1,0x0,None,CRC32C,CHAP_BI,TCP)",
	     u"iSCSI(iqn.x,0x1,0x0000000000000000,None,CRC32C,CHAP_BI,TCP)"},
	    {u"Vlan(100)"},
	    {u"Vlan(0x64)", u"Vlan(100)"},
	    {u"Uri(http://example.com/boot.efi)"},
	    {u"Uri()"},
	    {u"Uri(http://a/b,c(d))"},
	    {u"Bluetooth(0123456789AB)"},
	    {u"BluetoothLE(0123456789AB,0x01)"},
	    {u"BluetoothLE(0123456789ab,1)", u"BluetoothLE(0123456789AB,0x01)"},
	    {u"Wi-Fi(MyNetwork)"},
	    {u"Wi-Fi(a,b)"},
	    {u"Dns(192.168.1.1,8.8.8.8)"},
	    {u"Dns(2001:db8::1)", u"Dns(2001:0DB8:0000:0000:0000:0000:0000:0001)"},
	    {u"RestService(0x1,0x2)"},
	    {u"RestService(0xFF,0x1," GUID1 u",AB)"},
	};
	check_cases(cases, sizeof(cases) / sizeof(cases[0]), false, true);
}

TEST(devpath_text_media)
{
	static const struct case_text cases[] = {
	    {u"HD(1,GPT," GUID2 u",0x22,0x2710000)"},
	    {u"HD(1,MBR,0xA0021243,0x800,0x2EE000)"},
	    {u"HD(1,1,0xA0021243,0x800,0x2EE000)", u"HD(1,MBR,0xA0021243,0x800,0x2EE000)"},
	    {u"HD(2,," GUID2 u",1,2)", u"HD(2,GPT," GUID2 u",0x1,0x2)"},
	    {u"HD(0,3,0)", u"HD(0,3,0,0x0,0x0)"},
	    {u"HD(1,0,0,0x3F,0x1000)"},
	    {u"CDROM(0x0,0x1A,0x100)"},
	    {u"CDROM(,0x1A,0x100)", u"CDROM(0x0,0x1A,0x100)"},
	    {u"VenMedia(" GUID1 u")"},
	    {u"\\EFI\\BOOT\\BOOTX64.EFI"},
	    {u"\\EFI/BOOTX64.EFI"},
	    {u"Media(" GUID1 u")"},
	    {u"Fv(" GUID1 u")"},
	    {u"FvFile(" GUID1 u")"},
	    {u"Offset(0x0,0x1FF)"},
	    {u"RamDisk(0x1000,0x1FFF,0," GUID1 u")"},
	    {u"RamDisk(0x1000,0x1FFF,0,77AB535A-45FC-624B-5560-F7B281D1F96E)",
	     u"VirtualDisk(0x1000,0x1FFF,0)"},
	    {u"VirtualDisk(0x1000,0x1FFF,0)"},
	    {u"VirtualCD(0x1000,0x1FFF,1)"},
	    {u"PersistentVirtualDisk(0x1000,0x1FFF,0)"},
	    {u"PersistentVirtualCD(0x1000,0x1FFF,0)"},
	    {u"BBS(HD,Disk0,0x0)"},
	    {u"BBS(0x80,Net)", u"BBS(0x80,Net,0x0)"},
	    {u"BBS(Network,,0x2)"},
	};
	check_cases(cases, sizeof(cases) / sizeof(cases[0]), false, true);
}

TEST(devpath_text_paths)
{
	static const struct case_text cases[] = {
	    {u"PciRoot(0x0)/Pci(0x1,0x0)/Sata(0x0,0xFFFF,0x0)/"
	     u"HD(1,GPT," GUID2 u",0x800,0x100000)/\\EFI\\BOOT\\BOOTX64.EFI"},
	    {u"PciRoot(0x0)/Pci(0x1F,0x0)/Serial(0x0)/Uart(115200,8,N,1)/VenPcAnsi(),"
	     u"PciRoot(0x0)/Pci(0x2,0x0)/AcpiAdr(0x80010100)"},
	    {u"/PciRoot(0x0)//Pci(0x1,0x0)/", u"PciRoot(0x0)/Pci(0x1,0x0)"},
	    {u"PciRoot(0x0)/Pci(0x3,0x0)/MAC(525400123456,0x1)/IPv4(0.0.0.0,UDP,DHCP,0.0.0.0,"
	     u"0.0.0.0,0.0.0.0)/Uri(http://10.0.2.2/boot.iso)"},
	    {u"Fv(7CB8BDC9-F8EB-4F34-AAEA-3EE4AF6516A1)/"
	     u"FvFile(462CAA21-7614-4503-836E-8AB6F4662331)"},
	    {u"", u""},
	    {u"PciRoot(0x0),", u"PciRoot(0x0),"},
	};
	check_cases(cases, sizeof(cases) / sizeof(cases[0]), false, true);
}

TEST(devpath_text_display_only)
{
	static const struct case_text cases[] = {
	    {u"Ata(Secondary,Slave,0x3)", u"Ata(0x3)"},
	    {u"IPv4(192.168.0.100,TCP,Static,192.168.0.1)", u"IPv4(192.168.0.100)"},
	    {u"IPv6(::1,TCP)", u"IPv6(0000:0000:0000:0000:0000:0000:0000:0001)"},
	    {u"HD(1,GPT," GUID2 u",0x22,0x2710000)", u"HD(1,GPT," GUID2 u")"},
	    {u"CDROM(0x1,0x1A,0x100)", u"CDROM(0x1)"},
	    {u"BBS(HD,Disk0,0x3)", u"BBS(HD,Disk0)"},
	    {u"AcpiEx(PNP0A03,0,0x5,,,)", u"PciRoot(0x5)"},
	    {u"AcpiExp(PNP0A03,0,root2)", u"PciRoot(root2)"},
	    {u"AcpiEx(HWP0002,PNP0A03,0x0,,,)", u"PciRoot(0x0)"},
	    {u"AcpiEx(HWP0002,PNP0A08,0x1,,,)", u"PcieRoot(0x1)"},
	    {u"AcpiEx(PNP0A08,PNP0A03,0x1,,,)", u"PcieRoot(0x1)"},
	    {u"AcpiEx(0,0,0x0,ACPI0004,,UID1)", u"AcpiEx(ACPI0004,0,UID1)"},
	    {u"PciRoot(0x0)/Pci(0x1,0x1)/Ata(Primary,Master,0x0)",
	     u"PciRoot(0x0)/Pci(0x1,0x1)/Ata(0x0)"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		dpt_check_to_text(cases[i].in, cases[i].out, true, true);
}

TEST(devpath_text_no_shortcuts)
{
	static const struct case_text cases[] = {
	    {u"VenPcAnsi()", u"VenMsg(E0C14753-F9BE-11D2-9A0C-0090273FC14D)"},
	    {u"VenVt100()", u"VenMsg(DFA66065-B419-11D3-9A2D-0090273FC14D)"},
	    {u"VenVt100Plus()", u"VenMsg(7BAEC70B-57E0-4C76-8E87-2F9E28088343)"},
	    {u"VenUtf8()", u"VenMsg(AD15A0D6-8BEC-4ACF-A073-D01DE77E2D88)"},
	    {u"DebugPort()", u"VenMsg(EBA4E8D2-3858-41EC-A281-2647BA9660D0)"},
	    {u"UartFlowCtrl(Hardware)", u"VenMsg(37499A9D-542F-4C89-A026-35DA142094E4,01000000)"},
	    {u"SAS(0x1,0x2)", u"VenMsg(D487DDB4-008B-11D9-AFDC-001083FFCA4D,0000000001000000000000"
			      u"00020000000000000000000000)"},
	    /* Named forms chosen by HID, class or GUID are not vendor shortcuts. */
	    {u"PciRoot(0x1)", u"PciRoot(0x1)"},
	    {u"UsbHID(0x1,0x2,0x3,0x4)", u"UsbHID(0x1,0x2,0x3,0x4)"},
	};
	check_cases(cases, sizeof(cases) / sizeof(cases[0]), false, false);
}

/* Binary nodes that no named form can carry exactly fall back to the generic form. */
TEST(devpath_text_generic_fallback)
{
	static const struct {
		const UINT8 *bytes;
		size_t len;
		const CHAR16 *text;
	} cases[] = {
	    /* Pci with a stray byte */
	    {(const UINT8 *)"\x01\x01\x07\x00\x02\x1f\x00", 7, u"HardwarePath(1,021F00)"},
	    /* Uart with its reserved field set */
	    {(const UINT8 *)"\x03\x0e\x13\x00\x01\x00\x00\x00\x00\xc2\x01\x00\x00\x00\x00\x00"
			    "\x08\x01\x01",
	     19, u"Msg(14,0100000000C2010000000000080101)"},
	    /* File path containing a separator, and one without its terminator */
	    {(const UINT8 *)"\x04\x04\x0a\x00\x61\x00\x2f\x00\x00\x00", 10,
	     u"MediaPath(4,61002F000000)"},
	    {(const UINT8 *)"\x04\x04\x06\x00\x61\x00", 6, u"MediaPath(4,6100)"},
	    /* A file named like a device node */
	    {(const UINT8 *)"\x04\x04\x10\x00S\0D\0(\x00"
			    "1\0)\0\0\0",
	     16, u"MediaPath(4,530044002800310029000000)"},
	    /* MAC with Ethernet type but bytes beyond the sixth */
	    {(const UINT8 *)"\x03\x0b\x25\x00\x01\x02\x03\x04\x05\x06\x07\0\0\0\0\0\0\0\0\0\0\0\0"
			    "\0\0\0\0\0\0\0\0\0\0\0\0\0\x01",
	     37, u"Msg(11,010203040506070000000000000000000000000000000000000000000000000001)"},
	    /* MBR partition of a disk without signature: HD()'s Type cannot say both */
	    {(const UINT8 *)"\x04\x01\x2a\x00\x01\0\0\0\x3f\0\0\0\0\0\0\0\x00\x10\0\0\0\0\0\0"
			    "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\x01\x00",
	     42,
	     u"MediaPath(1,010000003F000000000000000010000000000000"
	     u"000000000000000000000000000000000100)"},
	    /* Unknown type */
	    {(const UINT8 *)"\x42\x07\x05\x00\xab", 5, u"Path(66,7,AB)"},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		dpt_check_node_bytes(cases[i].bytes, cases[i].len, cases[i].text);
}

TEST(devpath_text_file_fallback)
{
	EFI_DEVICE_PATH_PROTOCOL *p = dp_from_text(u"PciRoot(0x0)/Foo(1,2)/bar.efi");
	const UINT8 *b = (const UINT8 *)p;

	ASSERT(p);
	/* Unknown Name(...) text is a file path node (10.6.1.7). */
	EXPECT_EQ(b[12], MEDIA_DEVICE_PATH);
	EXPECT_EQ(b[13], MEDIA_FILEPATH_DP);
	EXPECT_EQ(b[14], 4 + 2 * 9);
	EXPECT(memcmp(b + 16, u"Foo(1,2)", 18) == 0);
	EXPECT_EQ(b[12 + 22 + 1], MEDIA_FILEPATH_DP);
	EXPECT_EQ(dp_size(p), 12 + 22 + 4 + 16 + 4);
	pool_free(p);
}

TEST(devpath_text_malformed)
{
	static const CHAR16 *const bad[] = {
	    u"Pci(1",
	    u"Pci(1,2,3)",
	    u"Pci(0x100,0)",
	    u"Pci(zz,0)",
	    u"Pci()",
	    u"Pci(1)",
	    u"Pci(-1,0)",
	    u"Pci(0x,0)",
	    u"Pci(99999999999999999999999,0)",
	    u"HD(1,GPT,notaguid,1,2)",
	    u"HD(1,MBR,0x1FFFFFFFF,1,2)",
	    u"HD(1,GPT," GUID2 u")",
	    u"Path(127,255)",
	    u"Path(127,1)",
	    u"Path(1)",
	    u"HardwarePath(1,123)",
	    u"VenHw(" GUID1 u",0G)",
	    u"VenHw()",
	    u"MAC(00112233445566778899001122334455"
	    u"6677889900112233445566778899001122)",
	    u"IPv4(1.2.3)",
	    u"IPv4(1.2.3.256)",
	    u"IPv4(1.2.3.4:65536)",
	    u"IPv6(1:2:3)",
	    u"IPv6(1::2::3)",
	    u"IPv6(12345::)",
	    u"Uart(1,2,X)",
	    u"Ata(Tertiary,Master,0)",
	    u"Dns(1.2.3.4,::1)",
	    u"NVMe(1,00-00)",
	    u"Bluetooth(0011)",
	    u"Wi-Fi(0123456789012345678901234567890123)",
	    u"UsbClass(0x10000)",
	    u"VenPcAnsi(1)",
	    u"Acpi()",
	    u"AcpiEx(x,y,z,a,b,c)",
	    u"SAS(0x1,0,0,SATA,Inside)",
	    u"RestService(1,2," GUID1 u")",
	    u"Sata(0,1)",
	    u"PciRoot(0x0)/Pci(1,2",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EFI_DEVICE_PATH_PROTOCOL *p = dp_from_text(bad[i]);

		if (!EXPECT(p == NULL))
			dpt_print16("  accepted: ", bad[i]);
		pool_free(p);
	}
	EXPECT(dp_from_text(NULL) == NULL);
	EXPECT(dp_node_from_text(NULL) == NULL);
	EXPECT(dp_node_from_text(u"") == NULL);
	EXPECT(dp_node_from_text(u"//") == NULL);
}

TEST(devpath_text_node_functions)
{
	EFI_DEVICE_PATH_PROTOCOL *node = dp_node_from_text(u"/Pci(0x1,0x2)/Pci(3,4)");
	CHAR16 *text;

	ASSERT(node);
	EXPECT_EQ(dp_node_length(node), 6);
	text = dp_node_to_text(node, false, false);
	EXPECT(text && dpt_str16_eq(text, u"Pci(0x1,0x2)"));
	pool_free(text);
	pool_free(node);

	node = dp_node_from_text(u"\\EFI\\x.efi,PciRoot(0)");
	ASSERT(node);
	EXPECT_EQ(node->SubType, MEDIA_FILEPATH_DP);
	EXPECT_EQ(dp_node_length(node), 4 + 2 * 11);
	pool_free(node);

	EXPECT(dp_node_to_text(NULL, false, false) == NULL);
	EXPECT(dp_to_text(NULL, false, false) == NULL);
}

/* Each field out of its range (UEFI 2.10 10.6.1: the binary field's width bounds the text),
 * a string that cannot be a CHAR8 string, or text that is not the node's syntax: refused,
 * one case for each field check of the parsers. */
TEST(devpath_text_field_ranges)
{
	static const CHAR16 *const bad[] = {
	    /* generic, hardware, ACPI */
	    u"Path(256,1)",
	    u"HardwarePath(256)",
	    u"PcCard(256)",
	    u"MemoryMapped(0x100000000,0,0)",
	    u"MemoryMapped(0,zz,0)",
	    u"Ctrl(0x100000000)",
	    u"BMC(256,0)",
	    u"BMC(0,zz)",
	    u"PciRoot(0x100000000)",
	    u"Acpi(PNPZZZZ,0)",
	    u"AcpiEx(PNP0A03,0,0,\u0100,,)",
	    u"AcpiEx(PNP0A03,0,MyUid,,,other)",
	    u"AcpiExp(xyz,0,x)",
	    u"AcpiExp(PNP0A03,bad!,x)",
	    u"AcpiAdr(0x100000000)",
	    u"AcpiAdr(1,zz)",
	    u"NVDIMM(0x100000000)",
	    u"VenHw(93E34C7E-B50E-11DF-9223-2443DFD7208\u00e9)",
	    /* messaging */
	    u"Scsi(0x10000,0)",
	    u"Fibre(zz,0)",
	    u"FibreEx(zz,0)",
	    u"I1394(zz)",
	    u"USB(256,0)",
	    u"I2O(0x100000000)",
	    u"Infiniband(0,93E34C7E-B50E-11DF-9223-2443DFD72085,0,0,zz)",
	    u"UartFlowCtrl(Sometimes)",
	    u"SAS(0x1,0x0,0x0,Other)",
	    u"SasEx(zz,0)",
	    u"UsbClass(1,2,0x100,0,0)",
	    u"UsbClass(1,2,3,0x100,0)",
	    u"UsbAudio(1,2,0x100,0)",
	    u"UsbWwid(0x10000,0,0,x)",
	    u"Unit(256)",
	    u"NVMe(0x1,000-00-00-00-00-00-00-00)",
	    u"UFS(256,0)",
	    u"SD(256)",
	    u"eMMC(256)",
	    /* network */
	    u"iSCSI(iqn.x,0x1,0x0,Sometimes,None,None,TCP)",
	    u"iSCSI(iqn.x,0x10000,0x0)",
	    u"iSCSI(iqn.\u0100,0x1,0x0)",
	    u"Vlan(0x10000)",
	    u"Uri(http://\u0100)",
	    u"Wi-Fi(\u0100)",
	    u"RestService(0x100,0x1)",
	    u"RestService(0xFF,0x1,notaguid)",
	    u"RestService(0xFF,0x1,93E34C7E-B50E-11DF-9223-2443DFD72085,zz)",
	    u"IPv6(1:2:3:4:5:6:7:1.2.3.4)",
	    u"IPv6(::1.2.3)",
	    u"IPv6(1::2:)",
	    u"IPv6([::1)",
	    /* media, BBS */
	    u"HD(0x100000000,MBR,0x1,0x1,0x1)",
	    u"CDROM(0x100000000,0,0)",
	    u"VenMedia(notaguid)",
	    u"Offset(zz,0)",
	    u"RamDisk(zz,0,0,93E34C7E-B50E-11DF-9223-2443DFD72085)",
	    u"RamDisk(0,0,0,notaguid)",
	    u"BBS(Sometimes,x)",
	    u"BBS(Floppy,\u0100)",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EFI_DEVICE_PATH_PROTOCOL *p = dp_from_text(bad[i]);

		if (!EXPECT(p == NULL))
			dpt_print16("  accepted: ", bad[i]);
		pool_free(p);
	}
}

/* A node's length is 16 bits: text that would make a longer node is refused. */
TEST(devpath_text_node_of_64_kib_refused)
{
	const UINTN n = 70000;
	CHAR16 *text = pool_alloc((n + 8) * sizeof(CHAR16));
	EFI_DEVICE_PATH_PROTOCOL *p;

	ASSERT(text);
	memcpy(text, u"Uri(", 8);
	for (UINTN i = 4; i < n; i++)
		text[i] = 'a';
	text[n] = ')';
	text[n + 1] = 0;
	EXPECT(dp_from_text(text) == NULL);
	/* Just under the limit: 65535 bytes with the header. */
	text[4 + 65531] = ')';
	text[4 + 65532] = 0;
	p = dp_from_text(text);
	EXPECT(p && dp_node_length(p) == 65535);
	pool_free(p);
	pool_free(text);
}

/* AcpiEx takes a name where a number does not fit (10.6.1.3). */
TEST(devpath_text_acpi_ex_names)
{
	dpt_check_to_text(u"AcpiEx(MyHid,0,0)", u"AcpiEx(0,0,0x0,MyHid,,)", false, false);
	/* A string UID with numeric HID and CID is AcpiExp's case. */
	dpt_check_to_text(u"AcpiEx(PNP0A03,0,MyUid)", u"AcpiExp(PNP0A03,0,MyUid)", false, false);
}

/* Nodes whose strings or fields the specific text cannot carry come out generic (and so
 * still parse back to the same bytes); one case for each such check. */
TEST(devpath_text_generic_fallback_more)
{
	static const struct {
		const UINT8 *bytes;
		size_t len;
		const CHAR16 *text;
	} cases[] = {
	    /* Uri with a NUL, and with an unclosed parenthesis */
	    {(const UINT8 *)"\x03\x18\x06\x00\x61\x00", 6, u"Msg(24,6100)"},
	    {(const UINT8 *)"\x03\x18\x06\x00\x61\x28", 6, u"Msg(24,6128)"},
	    /* UsbWwid whose serial number holds a double quote */
	    {(const UINT8 *)"\x03\x10\x0c\x00\x01\x00\x02\x00\x03\x00\x22\x00", 12,
	     u"Msg(16,0100020003002200)"},
	    /* iSCSI target name with a comma */
	    {(const UINT8 *)"\x03\x13\x16\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
			    "\x01\x00\x61\x2c\x62\x00",
	     22, u"Msg(19,0000000000000000000000000100612C6200)"},
	    /* Dns with an IPv4 address and bytes in the unused part of its slot */
	    {(const UINT8 *)"\x03\x1f\x15\x00\x00\x01\x02\x03\x04\x00\x00\x00\x00\x00\x00\x00"
			    "\x00\x00\x00\x00\x01",
	     21, u"Msg(31,0001020304000000000000000000000001)"},
	    /* HD with an MBR signature and bytes past its four */
	    {(const UINT8 *)"\x04\x01\x2a\x00\x01\x00\x00\x00\x00\x08\x00\x00\x00\x00\x00\x00"
			    "\x00\x10\x00\x00\x00\x00\x00\x00\x78\x56\x34\x12\x01\x00\x00\x00"
			    "\x00\x00\x00\x00\x00\x00\x00\x00\x01\x01",
	     42,
	     u"MediaPath(1,0100000000080000000000000010000000000000785634120100000000000000"
	     u"000000000101)"},
	};
	static const UINT8 end_instance[] = {0x7f, 0x01, 0x04, 0x00};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		dpt_check_node_bytes(cases[i].bytes, cases[i].len, cases[i].text);
	/* A non-TCP iSCSI protocol is shown as its number. */
	dpt_check_round_trip(u"iSCSI(iqn.x,0x1,0x0,None,None,None,0x5)",
			     u"iSCSI(iqn.x,0x1,0x0000000000000000,None,None,None,0x5)", false,
			     false);
	/* The End Instance node alone is the instance separator. */
	CHAR16 *text =
	    dp_node_to_text((const EFI_DEVICE_PATH_PROTOCOL *)end_instance, false, false);
	EXPECT(text && dpt_str16_eq(text, u","));
	pool_free(text);
}
