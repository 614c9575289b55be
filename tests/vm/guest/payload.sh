#!/bin/bash
echo "PAYLOAD placeholder" >&3
ls -l /dev/disk/by-id >&3
