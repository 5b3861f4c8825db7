#!/bin/sh
# /init of the Linux tests' initramfs (tests/qemu/linux_payloads.py builds it from Debian's
# busybox-static, efibootmgr and the kernel's modules). It reports what Linux found on
# Ember (lines "EMBER-<WHAT>: ..." on the console), does what its stage asks (the kernel
# command line's ember_stage=NAME) and powers off or reboots. The first line carries the
# kernel's uptime and the time-stamp counter (virtual nanoseconds since reset under
# -icount shift=0): scripts/bench-linux reads them.
tsc=$(/bin/rdtsc)
/bin/busybox mount -t proc proc /proc
read -r up idle </proc/uptime
echo "EMBER-INIT: start uptime=$up tsc=$tsc"
/bin/busybox --install -s /bin
export PATH=/bin:/usr/bin

GLOBAL=8be4df61-93ca-11d2-aa0d-00e098032b8c
TEST_GUID=3d9e4c5a-0f7b-4b8e-9a61-52c3e7d1f0a4
EV=/sys/firmware/efi/efivars
# The boot entries' command line keeps this boot's console (ttyS0 on x86, ttyAMA0 on arm64).
console=$(sed -n 's/.*console=\([^ ]*\).*/\1/p' /proc/cmdline)
BASE="console=${console:-ttyS0} loglevel=3 no_timer_check initrd=\\EFI\\ember\\initrd.gz"

mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for m in efivarfs virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci \
	virtio_blk; do
	[ -f /lib/modules/$m.ko ] || continue # the arm64 initramfs has efivarfs only
	insmod /lib/modules/$m.ko || echo "EMBER-INIT: insmod $m failed"
done
stage=$(sed -n 's/.*ember_stage=\([a-z0-9_]*\).*/\1/p' /proc/cmdline)
echo "EMBER-STAGE: ${stage:-none}"

# A UINT16 variable's value as four hex digits (efivarfs: 4 bytes of attributes first).
u16var() {
	[ -f "$1" ] || { echo none; return; }
	printf '%04X' "$(tail -c +5 "$1" | od -An -tu2 -N2 | tr -d ' ')"
}

# The boot logo's ACPI BGRT as Linux took it (drivers/acpi/bgrt.c): its fields, the size
# of the image Linux copied and the image's first two bytes ("BM").
bgrt() {
	b=/sys/firmware/acpi/bgrt
	if [ -f $b/image ]; then
		echo "EMBER-BGRT: version=$(cat $b/version) status=$(cat $b/status)" \
			"type=$(cat $b/type) x=$(cat $b/xoffset) y=$(cat $b/yoffset)" \
			"size=$(wc -c <$b/image) magic=$(head -c 2 $b/image)"
	else
		echo "EMBER-BGRT: none"
	fi
}

report() {
	[ -d /sys/firmware/efi ] && echo "EMBER-EFI: yes" || echo "EMBER-EFI: no"
	# What Linux took the machine from: ACPI tables, or a device tree with a model (the
	# EFI stub's own tree, made when the firmware gives ACPI only, has none).
	[ -d /sys/firmware/acpi/tables ] && echo "EMBER-ACPI: yes" || echo "EMBER-ACPI: no"
	echo "EMBER-DT-MODEL: $(cat /proc/device-tree/model 2>/dev/null || echo none)"
	bgrt
	mount -t efivarfs efivarfs $EV && echo "EMBER-EFIVARFS: mounted"
	for f in $EV/*; do echo "EMBER-VAR: ${f##*/}"; done
	echo "EMBER-BOOTCURRENT: $(u16var $EV/BootCurrent-$GLOBAL)"
	echo "EMBER-BOOTNEXT: $(u16var $EV/BootNext-$GLOBAL)"
	if [ -f $EV/EmberTest-$TEST_GUID ]; then
		echo "EMBER-TESTVAR: $(tail -c +5 $EV/EmberTest-$TEST_GUID)"
	else
		echo "EMBER-TESTVAR: none"
	fi
	echo "EMBER-CPUS: $(cat /sys/devices/system/cpu/online)"
	echo "EMBER-RTC: $(cat /sys/class/rtc/rtc0/date) $(cat /sys/class/rtc/rtc0/time)"
	echo "EMBER-HWCLOCK: $(hwclock -r -u 2>&1)"
	dmesg | grep -E 'efi: |EFI stub|random: |Memory attributes|secureboot: |locked down|[Ff]irmware [Bb]ug|FIRMWARE BUG|buggy firmware' | sed 's/^/EMBER-DMESG: /'
	efibootmgr -v 2>&1 | sed 's/^/EMBER-EFIBOOTMGR: /'
}

# efibootmgr entry number of a label (from its "BootXXXX* label" line).
entry() {
	efibootmgr | sed -n "s/^Boot\\([0-9A-F]\\{4\\}\\)\\*\\{0,1\\} $1\$/\\1/p"
}

report
case "$stage" in
install)
	# Run 1 of the boot-entry test: a variable and two boot entries, then power off.
	printf '\007\000\000\000from-linux' >$EV/EmberTest-$TEST_GUID
	efibootmgr -q -c -d /dev/vda -p 1 -L "Ember next" -l '\EFI\ember\vmlinuz.efi' \
		-u "$BASE ember_stage=next"
	efibootmgr -q -c -d /dev/vda -p 1 -L "Ember second" -l '\EFI\ember\vmlinuz.efi' \
		-u "$BASE ember_stage=second reboot=efi"
	efibootmgr -v 2>&1 | sed 's/^/EMBER-CREATED: /'
	echo "EMBER-DONE: install"
	poweroff -f
	;;
second)
	# Booted from "Ember second" (first in BootOrder). The first time, BootNext names
	# "Ember next" and Linux reboots through ResetSystem (reboot=efi); the second time
	# BootNext has been used once, and this stage powers off.
	if [ -f $EV/EmberCount-$TEST_GUID ]; then
		echo "EMBER-DONE: second again"
		poweroff -f
	fi
	printf '\007\000\000\0001' >$EV/EmberCount-$TEST_GUID
	efibootmgr -q -n "$(entry 'Ember next')"
	echo "EMBER-BOOTNEXT-SET: $(u16var $EV/BootNext-$GLOBAL)"
	echo "EMBER-DONE: second, rebooting through EFI ResetSystem"
	reboot -f
	;;
next)
	echo "EMBER-DONE: next, rebooting through ACPI"
	reboot -f
	;;
s3 | s3_damaged)
	# tests/qemu/test_s3.py: suspend to RAM three times (the test wakes the machine with
	# QMP system_wakeup); after each wake a variable written and read back through efivarfs
	# and the disk's marker read from the device. s3_damaged first breaks the firmware's
	# S3 record (Ember's, at 0x9e030: reset/s3.h) through /dev/mem: the wake must then
	# boot afresh.
	echo deep >/sys/power/mem_sleep
	dmesg | grep 'BIOS-e820:' | sed 's/^.*BIOS-e820: /EMBER-E820: /'
	[ "$stage" = s3_damaged ] &&
		printf 'XXXX' | dd of=/dev/mem bs=1 seek=$((0x9e030)) conv=notrunc 2>/dev/null &&
		echo "EMBER-S3-DAMAGED: yes"
	for n in 1 2 3; do
		echo "EMBER-S3-SUSPEND: $n"
		echo mem >/sys/power/state || echo "EMBER-S3-FAILED: $n"
		echo "EMBER-S3-RESUMED: $n"
		printf '\007\000\000\000s3-%s' "$n" >$EV/EmberS3$n-$TEST_GUID
		echo "EMBER-S3-EFIVARFS: $(tail -c +5 $EV/EmberS3$n-$TEST_GUID)"
		echo 3 >/proc/sys/vm/drop_caches
		echo "EMBER-S3-DISK: $(dd if=/dev/vda bs=512 skip=1 count=1 2>/dev/null | head -c 16)"
	done
	echo "EMBER-DONE: s3"
	poweroff -f
	;;
reboot_efi)
	echo "EMBER-DONE: rebooting"
	reboot -f
	;;
firmware_setup)
	# What `systemctl reboot --firmware-setup` does: when OsIndicationsSupported has
	# BOOT_TO_FW_UI (bit 0), OsIndications gets it (NV+BS+RT, a UINT64), then a reboot.
	supported=$(tail -c +5 $EV/OsIndicationsSupported-$GLOBAL | od -An -tu1 -N1 | tr -d ' ')
	echo "EMBER-OSINDICATIONS-SUPPORTED: $supported"
	if [ $((supported & 1)) = 1 ]; then
		printf '\007\000\000\000\001\000\000\000\000\000\000\000' \
			>$EV/OsIndications-$GLOBAL
		echo "EMBER-DONE: firmware setup asked, rebooting"
		reboot -f
	fi
	echo "EMBER-DONE: no BOOT_TO_FW_UI"
	poweroff -f
	;;
persist)
	# tests/qemu/test_aarch64_linux.py: a variable written through efivarfs, then a reboot
	# (arm64 Linux resets through the EFI ResetSystem); the next boot finds the variable.
	if [ -f $EV/EmberTest-$TEST_GUID ]; then
		echo "EMBER-DONE: persist, found"
		poweroff -f
	fi
	printf '\007\000\000\000from-linux' >$EV/EmberTest-$TEST_GUID
	echo "EMBER-DONE: persist, written, rebooting"
	reboot -f
	;;
*)
	echo "EMBER-DONE: report"
	poweroff -f
	;;
esac
sleep 5
echo "EMBER-INIT: still running after $stage"
