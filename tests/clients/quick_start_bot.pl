#!/usr/bin/perl
# A test fixture, not an example: a bot written from PROTOCOL.md's quick start alone, in a
# language the project ships no example for, with msgpack made by hand (Perl's standard
# library has none). tests/clients/test_quick_start_bot.py plays a whole table with it.
# Usage: perl quick_start_bot.pl HOST PORT NAME
use strict; use warnings; use IO::Socket::INET; use IO::Select;  # perl-base only

die "usage: perl quick_start_bot.pl HOST PORT NAME\n" unless @ARGV == 3;
my ($host, $port, $name) = @ARGV;

# ---- msgpack, the parts needed
sub enc {
    my ($v) = @_;
    return "\xc0" unless defined $v;
    if (ref $v eq 'HASH') {
        my @k = keys %$v; my $n = @k;
        my $out = $n < 16 ? chr(0x80 | $n) : "\xde" . pack("n", $n);
        $out .= enc_str($_) . enc($v->{$_}) for @k;
        return $out;
    }
    if (ref $v eq 'ARRAY') {
        my $n = @$v;
        my $out = $n < 16 ? chr(0x90 | $n) : "\xdc" . pack("n", $n);
        $out .= enc($_) for @$v;
        return $out;
    }
    if (ref $v eq 'SCALAR') { return $$v ? "\xc3" : "\xc2" }   # \1 true, \0 false
    if ($v =~ /^-?\d+$/) {
        return chr($v) if $v >= 0 && $v < 128;
        return "\xcd" . pack("n", $v) if $v >= 0 && $v < 65536;
        return "\xce" . pack("N", $v) if $v >= 0;
        return "\xd2" . pack("l>", $v);
    }
    return enc_str($v);
}
sub enc_str {
    my ($s) = @_; utf8::encode($s); my $n = length $s;
    return ($n < 32 ? chr(0xa0 | $n) : $n < 256 ? "\xd9" . chr($n) : "\xda" . pack("n", $n)) . $s;
}
sub dec {   # (buffer ref, offset ref) -> value
    my ($b, $o) = @_;
    my $t = ord substr($$b, $$o++, 1);
    my $take = sub { my $s = substr($$b, $$o, $_[0]); $$o += $_[0]; $s };
    return $t if $t < 0x80;
    return dec_map($b, $o, $t & 0x0f) if ($t & 0xf0) == 0x80;
    return dec_arr($b, $o, $t & 0x0f) if ($t & 0xf0) == 0x90;
    if (($t & 0xe0) == 0xa0) { my $s = $take->($t & 0x1f); utf8::decode($s); return $s }
    return $t - 256 if $t >= 0xe0;
    return undef if $t == 0xc0;
    return 0 if $t == 0xc2;
    return 1 if $t == 0xc3;
    return unpack("f>", $take->(4)) if $t == 0xca;
    return unpack("d>", $take->(8)) if $t == 0xcb;
    return ord $take->(1) if $t == 0xcc;
    return unpack("n", $take->(2)) if $t == 0xcd;
    return unpack("N", $take->(4)) if $t == 0xce;
    return unpack("Q>", $take->(8)) if $t == 0xcf;
    return unpack("c", $take->(1)) if $t == 0xd0;
    return unpack("s>", $take->(2)) if $t == 0xd1;
    return unpack("l>", $take->(4)) if $t == 0xd2;
    return unpack("q>", $take->(8)) if $t == 0xd3;
    if ($t == 0xd9 || $t == 0xda || $t == 0xdb) {
        my $n = $t == 0xd9 ? ord $take->(1) : $t == 0xda ? unpack("n", $take->(2)) : unpack("N", $take->(4));
        my $s = $take->($n); utf8::decode($s); return $s;
    }
    return dec_arr($b, $o, unpack("n", $take->(2))) if $t == 0xdc;
    return dec_arr($b, $o, unpack("N", $take->(4))) if $t == 0xdd;
    return dec_map($b, $o, unpack("n", $take->(2))) if $t == 0xde;
    return dec_map($b, $o, unpack("N", $take->(4))) if $t == 0xdf;
    die sprintf("unknown msgpack byte 0x%02x\n", $t);
}
sub dec_map { my ($b, $o, $n) = @_; my %h; for (1 .. $n) { my $k = dec($b, $o); $h{$k} = dec($b, $o) } \%h }
sub dec_arr { my ($b, $o, $n) = @_; [map { dec($b, $o) } 1 .. $n] }

# ---- the bot
my $sock = IO::Socket::INET->new(PeerAddr => $host, PeerPort => $port, Proto => 'tcp') or die "connect: $!\n";
binmode $sock;
my $last_sent = 0;
sub send_msg { my $body = enc($_[0]); print {$sock} pack("N", length $body) . $body; $sock->flush; $last_sent = time }

sub answer {
    my ($d) = @_;
    my $k = $d->{kind};
    my %a;
    if ($k eq 'play') { %a = @{$d->{sets}} ? (type => 'play', set => $d->{sets}[0]) : (type => 'pass') }
    elsif ($k eq 'revolution') { %a = (type => 'revolution', declare => \0) }
    elsif ($k eq 'tax') { my @h = @{$d->{hand}}; %a = (type => 'tax', cards => [@h[-$d->{count} .. -1]]) }
    elsif ($k eq 'exchange') { %a = (type => 'exchange', merchant => undef, card => undef) }
    elsif ($k eq 'misdeal') { %a = (type => 'misdeal', choice => 'intended') }
    elsif ($k eq 'placement') { %a = (type => 'place', position => $d->{positions}[0]) }
    else { return }
    send_msg({%a, decision_id => $d->{decision_id}});
}

send_msg({type => 'hello', version => 2, name => $name, role => 'player'});
my $sel = IO::Select->new($sock);
my $buf = '';
my $answered = 0;
while (1) {
    if ($sel->can_read(1)) {
        my $got = sysread($sock, my $chunk, 65536);
        die "connection closed by the host\n" unless $got;
        $buf .= $chunk;
    }
    send_msg({type => 'heartbeat'}) if time - $last_sent >= 3;  # whole seconds: under 5 s
    while (length $buf >= 4) {
        my $n = unpack("N", $buf);
        last if length $buf < 4 + $n;
        my $body = substr($buf, 4, $n); $buf = substr($buf, 4 + $n);
        my $o = 0; my $m = dec(\$body, \$o);
        my $type = $m->{type};
        if ($type eq 'decision') { answer($m); $answered++ }
        elsif ($type eq 'snapshot' && defined $m->{decision}) { answer($m->{decision}); $answered++ }
        elsif ($type eq 'hand_ended') { send_msg({type => 'ready', ready => \1}) }  # step 5
        elsif ($type eq 'table_ended') { print "table ended after $answered answers\n"; exit 0 }
        elsif ($type eq 'goodbye') { print "goodbye: $m->{reason}\n"; exit 0 }
        elsif ($type eq 'error') {
            print "error $m->{code}: $m->{message}\n";
            exit 1 if $m->{fatal};
        }
    }
}
