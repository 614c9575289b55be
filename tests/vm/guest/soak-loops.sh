#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# soak-loops.sh: the loop-device event generator of the daemon soak, shared by
# tests/integration/daemon-soak.sh (host, kernel uevents) and
# tests/vm/guest/soak.sh (guest, real udev).  One perl process, no fork per
# event: it creates loop devices with LOOP_CTL_ADD, attaches and detaches a
# backing file (LOOP_SET_FD/LOOP_CLR_FD) and removes them (LOOP_CTL_REMOVE),
# round after round, so the kernel sends add, change, change, remove per device
# and round.
#
#   soak-loops.sh create FIRST COUNT           create COUNT loop devices at the
#                                              first free numbers >= FIRST, print
#                                              their names (EEXIST: next number)
#   soak-loops.sh run STATE BACKING HOLD_MS VERIFY_EVERY WANT EVENTS NAME...
#       rounds until EVENTS add+remove events were made (or SOAK_SECONDS
#       passed): attach all (only every SOAK_ATTACH_EVERY-th round, default
#       every round, always in the first and the last one), hold for
#       0..HOLD_MS ms (every VERIFY_EVERY-th round: until every device shows the
#       scheduler WANT, at most $SOAK_VERIFY_TIMEOUT s, default 10), detach,
#       remove (retried while udev holds it open, as long) and re-create
#       all.  Ends
#       with every device attached.  Writes "key=value" lines to STATE after
#       every round (adds removes attaches detaches rounds verified missed
#       lost verify_max_ms names); a device still attached to BACKING from an
#       earlier run is used as it is; a device number another program took in
#       between (EEXIST on re-create) is dropped, never touched again.
#   soak-loops.sh release BACKING NAME...      detach each device if it is
#                                              attached to BACKING, and remove it
#
# Only devices this program created are touched: a remove is refused by the
# kernel (EBUSY) while a device is bound, and a device lost to another program
# is never used again.
exec perl -x "$0" "$@"
#!perl
use strict;
use warnings;
use Fcntl qw(O_RDWR O_RDONLY);
use Time::HiRes qw(time sleep);

my ($LOOP_SET_FD, $LOOP_CLR_FD) = (0x4C00, 0x4C01);
my ($CTL_ADD, $CTL_REMOVE) = (0x4C80, 0x4C81);
$| = 1;

sub ctl {
    sysopen(my $c, "/dev/loop-control", O_RDWR) or die "soak-loops: /dev/loop-control: $!\n";
    return $c;
}

sub ctl_add {       # -> 1 created, 0 exists, dies otherwise
    my ($c, $n) = @_;
    return 1 if defined ioctl($c, $CTL_ADD, $n + 0);
    return 0 if $!{EEXIST};
    die "soak-loops: LOOP_CTL_ADD $n: $!\n";
}

sub ctl_remove {    # retried while something (udev's blkid) still holds it
    my ($c, $n) = @_;
    for (1 .. 2000) {
        return 1 if defined ioctl($c, $CTL_REMOVE, $n + 0);
        return 0 unless $!{EBUSY};
        sleep(0.005);
    }
    return 0;
}

sub backing {
    my ($name) = @_;
    open(my $b, '<', "/sys/block/$name/loop/backing_file") or return '';
    my $f = <$b> // '';
    chomp $f;
    return $f;
}

sub sched {
    my ($name) = @_;
    open(my $f, '<', "/sys/block/$name/queue/scheduler") or return '-';
    my $s = <$f> // '';
    return $s =~ /\[([^\]]+)\]/ ? $1 : $s;
}

my $cmd = shift @ARGV // '';
if ($cmd eq 'create') {
    my ($n, $count) = @ARGV;
    my $c = ctl();
    my @got;
    for (my $tries = 0; @got < $count && $tries < $count * 20; $tries++, $n++) {
        next if -e "/sys/block/loop$n" || -e "/dev/loop$n";
        push @got, "loop$n" if ctl_add($c, $n);
    }
    print "$_\n" for @got;
    exit(@got ? 0 : 1);
}

if ($cmd eq 'release') {
    my $backing = shift @ARGV;
    my $c = ctl();
    for my $name (@ARGV) {
        my ($n) = $name =~ /^loop(\d+)$/ or next;
        next unless -e "/sys/block/$name";
        my $bfile = backing($name);
        if ($bfile ne '' && $bfile ne $backing) {
            warn "soak-loops: $name is attached to $bfile, not ours: left alone\n";
            next;
        }
        if ($bfile ne '' && sysopen(my $l, "/dev/$name", O_RDONLY)) {
            ioctl($l, $LOOP_CLR_FD, 0);
            close($l);
        }
        ctl_remove($c, $n) or warn "soak-loops: cannot remove $name: $!\n";
    }
    exit 0;
}

die "usage: soak-loops.sh create|run|release ...\n" unless $cmd eq 'run';
my ($state, $backing, $hold_ms, $verify_every, $want, $events, @names) = @ARGV;
my %st = (adds => 0, removes => 0, attaches => 0, detaches => 0, rounds => 0,
          verified => 0, missed => 0, lost => 0, verify_max_ms => 0);
my $verify_s = $ENV{SOAK_VERIFY_TIMEOUT} // 10;
my $c = ctl();
sysopen(my $bf, $backing, O_RDWR) or die "soak-loops: $backing: $!\n";
my @missed;

sub save {
    open(my $f, '>', "$state.tmp") or die "soak-loops: $state: $!\n";
    print $f "$_=$st{$_}\n" for sort keys %st;
    print $f "names=@names\n";
    print $f "missed_names=@missed\n";
    close($f);
    rename("$state.tmp", $state);
}

my $attach_every = $ENV{SOAK_ATTACH_EVERY} || 1;
my $deadline = ($ENV{SOAK_SECONDS} || 0) > 0 ? time() + $ENV{SOAK_SECONDS} : 0;
my $last = 0;
while (1) {
    my %fh;
    $last = $st{adds} + $st{removes} >= $events || ($deadline && time() >= $deadline);
    my $attach = $last || $st{rounds} == 0 || ($st{rounds} + 1) % $attach_every == 0;
    for my $name ($attach ? @names : ()) {
        sysopen(my $l, "/dev/$name", O_RDWR) or die "soak-loops: /dev/$name: $!\n";
        # (a device still attached from an earlier run with our file is taken as is)
        defined ioctl($l, $LOOP_SET_FD, fileno($bf)) or ($!{EBUSY} && backing($name) eq $backing)
            or die "soak-loops: LOOP_SET_FD $name: $!\n";
        $fh{$name} = $l;
        $st{attaches}++;
    }
    $st{rounds}++;
    if ($last || ($verify_every > 0 && $st{rounds} % $verify_every == 0)) {
        # every device attached in this round must get the policy's scheduler
        my $t0 = time();
        my %left = map { $_ => 1 } @names;
        while (%left && time() - $t0 < $verify_s) {
            for my $name (keys %left) {
                delete $left{$name} if sched($name) eq $want;
            }
            sleep(0.002) if %left;
        }
        my $ms = int((time() - $t0) * 1000);
        $st{verify_max_ms} = $ms if $ms > $st{verify_max_ms};
        $st{verified} += @names - keys %left;
        $st{missed} += keys %left;
        push @missed, map { "$_\@round$st{rounds}" } sort keys %left;
    } elsif ($hold_ms > 0) {
        sleep(rand($hold_ms) / 1000);
    }
    if ($last) {
        save();
        last;       # the devices stay attached: the caller checks and releases them
    }
    for my $name ($attach ? @names : ()) {
        ioctl($fh{$name}, $LOOP_CLR_FD, 0);
        close($fh{$name});
        $st{detaches}++;
    }
    # remove all, the busy ones (udev's worker holds each device open while it
    # handles an event) tried again while the others go on, for up to
    # SOAK_VERIFY_TIMEOUT s
    my %busy = map { $_ => 1 } @names;
    my $t0 = time();
    while (%busy) {
        for my $name (sort keys %busy) {
            my ($n) = $name =~ /(\d+)$/;
            if (defined ioctl($c, $CTL_REMOVE, $n + 0)) {
                delete $busy{$name};
                $st{removes}++;
            } elsif (!$!{EBUSY} || time() - $t0 > $verify_s) {
                die "soak-loops: LOOP_CTL_REMOVE $name: $!\n";
            }
        }
        sleep(0.002) if %busy;
    }
    my @kept;
    for my $name (@names) {
        my ($n) = $name =~ /(\d+)$/;
        if (ctl_add($c, $n)) {
            $st{adds}++;
            push @kept, $name;
        } else {
            $st{lost}++;    # another program created loop$n in between: not ours now
        }
    }
    @names = @kept;
    die "soak-loops: every device number was lost to other programs\n" unless @names;
    save();
}
exit 0;
