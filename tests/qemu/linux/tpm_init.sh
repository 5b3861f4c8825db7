#!/bin/sh
# /init of the measured-boot Linux test (tests/qemu/test_measured_boot_linux.py): reports what
# Linux found of the TPM and the firmware's event log as "EMBER-<WHAT>: ..." lines, then
# powers off. The SHA-256 PCRs 0-7 as Linux reads them from the TPM, and the log
# (binary_bios_measurements, the firmware's log Linux got from the EFI stub) as hex lines.
/bin/busybox --install -s /bin
export PATH=/bin:/usr/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t securityfs securityfs /sys/kernel/security
if [ -d /sys/class/tpm/tpm0 ]; then
	echo "EMBER-TPM: tpm0"
else
	echo "EMBER-TPM: none"
fi
for i in 0 1 2 3 4 5 6 7; do
	echo "EMBER-PCR: $i $(cat /sys/class/tpm/tpm0/pcr-sha256/$i 2>&1)"
done
log=/sys/kernel/security/tpm0/binary_bios_measurements
if [ -r $log ]; then
	od -An -v -tx1 $log | tr -d ' \n' | fold -w 1024 | sed 's/^/EMBER-TPMLOG: /'
	echo
fi
echo "EMBER-DONE: tpm"
poweroff -f
sleep 5
