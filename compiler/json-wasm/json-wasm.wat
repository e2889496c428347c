;; The byte-level work on a JSON document that JavaScript would do a byte at a time, run by runtime/core/json-wasm.ts:
;; - compact: the one-byte text of runtime/core/json-text.ts, without the whitespace JSON.parse would skip and with
;;   each non-ASCII character as \u escapes;
;; - locate: the finding locator's walk (runtime/core/locate.ts) along the requested JSON Pointers, which skips every
;;   container no finding lies in (skip_container, counting the line feeds it passes; line_feeds_between does the
;;   counting alone for a container whose end the scan recorded) and counts a finding's column in code points
;;   (continuation_bytes_between);
;; - scan: the structure scan of runtime/core/json-structure.ts for a JSON text JSON.parse has accepted, with the same
;;   answers: nesting deeper than 256 levels, and whether the text needs the exact pass (a member name whose
;; hash repeats within its object, an escaped name, an object with more names than are tracked, or a \u escape that may
;; denote an excluded character); on the way it records where the large containers of the top seven levels end.
;; compact can run the same scan on the chunks it reads, before JSON.parse has read the text: the document is then read
;; once for both, while it is in the cache (a separate scan after JSON.parse read it from memory again). SIMD
;; compares find the bytes acted on (the scan and the skip: 64 at a time, with string contents told apart by bit
;; arithmetic), so runs of indentation and string contents
;; cost a few instructions per block; and compiled WebAssembly runs at full speed from the first call, where the
;; JavaScript scan runs unoptimized in a cold process.
;;
;; Memory: the caller copies the document to $document_start and 64 spaces after it (every load of up to 64 bytes
;; stays in bounds, and spaces are neither acted on nor escaped), then calls a function with the document's length.
(module
  (memory (export "memory") 3)
  (global $hex_digits i32 (i32.const 768))
  (data (i32.const 768) "0123456789abcdef")
  ;; The compaction's byte classes (see compact), looked up by a byte's low nibble with i8x16.swizzle: a byte is in a
  ;; class when the entry at its low nibble equals it. Whitespace: space, tab, line feed, carriage return (entry 0 is the
  ;; space; the others hold 0, whose low nibble differs from their index). Separators, the bytes after which whitespace
  ;; can go: compared with bit 5 cleared, the entries are a quote, a colon, a comma, brackets and, so, braces (and four
  ;; control characters that are invalid where they could match, outside strings).
  (global $whitespace_table i32 (i32.const 784))
  (data (i32.const 784) "\20\00\00\00\00\00\00\00\00\09\0a\00\00\0d\00\00")
  (global $separator_table i32 (i32.const 800))
  (data (i32.const 800) "\01\00\02\00\00\00\00\00\00\00\1a\5b\0c\5d\00\00")
  ;; Byte per depth: 1 when the container at that depth is an object.
  (global $is_object i32 (i32.const 0))
  ;; i32 per depth: how many member names of the open object at that depth are listed.
  (global $name_counts i32 (i32.const 1024))
  ;; 64 i32 hashes per depth: the listed member names of the open object at that depth (depths 1 to 256, so up to
  ;; 4096 + 257 * 256 = 69888).
  (global $name_lists i32 (i32.const 4096))
  ;; i32 per depth up to $recorded_depth: where the open container at that depth starts (a document offset). Depths 0
  ;; to 7 fill the 32 bytes up to the container table: a deeper $recorded_depth needs the table moved.
  (global $container_starts i32 (i32.const 69888))
  ;; The large containers the scan met near the top of the document, as (start, end) document offsets: the locator
  ;; passes them by counting their line feeds instead of skipping them bracket by bracket. 1024 entries of 8 bytes,
  ;; up to 78112, below $document_start.
  (global $container_table i32 (i32.const 69920))
  (global $containers (mut i32) (i32.const 0))
  (global $container_capacity i32 (i32.const 1024))
  (global $recorded_depth i32 (i32.const 7))
  (global $recorded_bytes i32 (i32.const 2048))
  (global $document_start (export "document_start") i32 (i32.const 131072))

  ;; Scan results: bit 0 nesting too deep, bit 1 needs the exact pass.
  (global $too_deep i32 (i32.const 1))
  (global $needs_text_pass i32 (i32.const 2))
  (global $flags (mut i32) (i32.const 0))

  ;; skip_container results besides its return value: the line feeds it passed, and the document offset of the last.
  (global $line_feeds (mut i32) (i32.const 0))
  (global $last_line_feed (mut i32) (i32.const -1))

  (func $hex_digit (param $byte i32) (result i32)
    (if (result i32) (i32.le_u (local.get $byte) (i32.const 0x39))
      (then (i32.sub (local.get $byte) (i32.const 0x30)))
      (else (i32.sub (i32.or (local.get $byte) (i32.const 0x20)) (i32.const 0x57)))))

  ;; The UTF-16 code unit of the \u escape whose hex digits start at $at.
  (func $escape_unit (param $at i32) (result i32)
    (i32.or
      (i32.or
        (i32.shl (call $hex_digit (i32.load8_u (local.get $at))) (i32.const 12))
        (i32.shl (call $hex_digit (i32.load8_u offset=1 (local.get $at))) (i32.const 8)))
      (i32.or
        (i32.shl (call $hex_digit (i32.load8_u offset=2 (local.get $at))) (i32.const 4))
        (call $hex_digit (i32.load8_u offset=3 (local.get $at))))))

  ;; Whether the \u escape whose hex digits start at $at denotes an excluded control character or a surrogate.
  (func $excluded_escape (param $at i32) (result i32)
    (local $unit i32)
    (local.set $unit (call $escape_unit (local.get $at)))
    (i32.or
      (i32.and
        (i32.lt_u (local.get $unit) (i32.const 0x20))
        (i32.and
          (i32.ne (local.get $unit) (i32.const 0x09))
          (i32.and (i32.ne (local.get $unit) (i32.const 0x0a)) (i32.ne (local.get $unit) (i32.const 0x0d)))))
      (i32.lt_u (i32.sub (local.get $unit) (i32.const 0xd800)) (i32.const 0x800))))

  ;; The index of the quote that closes the string whose contents start at $at (for a member name longer than what is
  ;; left of the scan's chunk), or $end when none does before it. Flags a suspicious \u escape.
  (func $string_end (param $at i32) (param $end i32) (result i32)
    (local $bytes v128)
    (local $block i32)
    (local $mask i32)
    (local $found i32)
    (loop $search_from_at
      (if (i32.ge_u (local.get $at) (local.get $end)) (then (return (local.get $end))))
      ;; Bit k set when byte k of the block is a quote or a backslash, from $at on.
      (local.set $block (i32.and (local.get $at) (i32.const -16)))
      (local.set $bytes (v128.load (local.get $block)))
      (local.set $mask
        (i32.and
          (i8x16.bitmask
            (v128.or
              (i8x16.eq (local.get $bytes) (i8x16.splat (i32.const 0x22)))
              (i8x16.eq (local.get $bytes) (i8x16.splat (i32.const 0x5c)))))
          (i32.shl (i32.const -1) (i32.and (local.get $at) (i32.const 15)))))
      (if (i32.eqz (local.get $mask))
        (then
          (local.set $at (i32.add (local.get $block) (i32.const 16)))
          (br $search_from_at)))
      (local.set $found (i32.add (local.get $block) (i32.ctz (local.get $mask))))
      (if (i32.eq (i32.load8_u (local.get $found)) (i32.const 0x22))
        (then (return (local.get $found))))
      ;; A backslash: the byte after it is escaped (it may be a quote or a backslash), so the search resumes past it.
      (if (i32.eq (i32.load8_u offset=1 (local.get $found)) (i32.const 0x75))
        (then
          (if (call $excluded_escape (i32.add (local.get $found) (i32.const 2)))
            (then (global.set $flags (i32.or (global.get $flags) (global.get $needs_text_pass)))))))
      (local.set $at (i32.add (local.get $found) (i32.const 2)))
      (br $search_from_at))
    (unreachable))

  ;; What the 64 bytes at $at hold, for the scan and the skip, which read a document 64 bytes at a time and, as
  ;; simdjson does, tell string contents from structure with bit arithmetic on masks of those bytes (bit k: byte k), so
  ;; that a string costs no work of its own. Besides quotes and brackets, each caller needs one more byte found outside
  ;; strings, $other (the scan: commas; the skip: line feeds, which strings cannot hold). The caller sets
  ;; $chunk_escaped and $chunk_in_string for its first chunk; each call carries them on to the next 64 bytes.
  (global $chunk_escaped (mut i64) (i64.const 0)) ;; 1 when the first byte is escaped by a backslash before it
  (global $chunk_in_string (mut i64) (i64.const 0)) ;; all ones when the first byte lies inside a string
  (global $chunk_brackets (mut i64) (i64.const 0)) ;; brackets and braces outside strings
  (global $chunk_others (mut i64) (i64.const 0)) ;; $other outside strings
  (global $chunk_opening_quotes (mut i64) (i64.const 0))
  (global $chunk_closing_quotes (mut i64) (i64.const 0))
  (global $chunk_escaped_us (mut i64) (i64.const 0)) ;; the u of each \u escape
  (func $classify_chunk (param $at i32) (param $other i32)
    (local $bytes v128)
    (local $folded v128)
    (local $quote_splat v128)
    (local $backslash_splat v128)
    (local $other_splat v128)
    (local $q0 i32) (local $q1 i32) (local $q2 i32) (local $q3 i32)
    (local $b0 i32) (local $b1 i32) (local $b2 i32) (local $b3 i32)
    (local $o0 i32) (local $o1 i32) (local $o2 i32) (local $o3 i32)
    (local $k0 i32) (local $k1 i32) (local $k2 i32) (local $k3 i32)
    (local $quotes i64)
    (local $backslashes i64)
    (local $brackets i64)
    (local $others i64)
    (local $us i64)
    (local $escaped i64)
    (local $follows_escape i64)
    (local $sum i64)
    (local $in_string i64)
    (local $outside i64)
    (local $part i32)
    ;; The four 16-byte steps are written out: as a loop, each mask took a shift by a variable and the loop its own
    ;; branch, which made the scan a fifth slower. Masking out bit 5 maps { and } onto [ and ].
    (local.set $quote_splat (i8x16.splat (i32.const 0x22)))
    (local.set $backslash_splat (i8x16.splat (i32.const 0x5c)))
    (local.set $other_splat (i8x16.splat (local.get $other)))
    (local.set $bytes (v128.load offset=0 (local.get $at)))
    (local.set $folded (v128.and (local.get $bytes) (i8x16.splat (i32.const 0xdf))))
    (local.set $q0 (i8x16.bitmask (i8x16.eq (local.get $bytes) (local.get $quote_splat))))
    (local.set $b0 (i8x16.bitmask (i8x16.eq (local.get $bytes) (local.get $backslash_splat))))
    (local.set $o0 (i8x16.bitmask (i8x16.eq (local.get $bytes) (local.get $other_splat))))
    (local.set $k0 (i8x16.bitmask (v128.or (i8x16.eq (local.get $folded) (i8x16.splat (i32.const 0x5b))) (i8x16.eq (local.get $folded) (i8x16.splat (i32.const 0x5d))))))
    (local.set $bytes (v128.load offset=16 (local.get $at)))
    (local.set $folded (v128.and (local.get $bytes) (i8x16.splat (i32.const 0xdf))))
    (local.set $q1 (i8x16.bitmask (i8x16.eq (local.get $bytes) (local.get $quote_splat))))
    (local.set $b1 (i8x16.bitmask (i8x16.eq (local.get $bytes) (local.get $backslash_splat))))
    (local.set $o1 (i8x16.bitmask (i8x16.eq (local.get $bytes) (local.get $other_splat))))
    (local.set $k1 (i8x16.bitmask (v128.or (i8x16.eq (local.get $folded) (i8x16.splat (i32.const 0x5b))) (i8x16.eq (local.get $folded) (i8x16.splat (i32.const 0x5d))))))
    (local.set $bytes (v128.load offset=32 (local.get $at)))
    (local.set $folded (v128.and (local.get $bytes) (i8x16.splat (i32.const 0xdf))))
    (local.set $q2 (i8x16.bitmask (i8x16.eq (local.get $bytes) (local.get $quote_splat))))
    (local.set $b2 (i8x16.bitmask (i8x16.eq (local.get $bytes) (local.get $backslash_splat))))
    (local.set $o2 (i8x16.bitmask (i8x16.eq (local.get $bytes) (local.get $other_splat))))
    (local.set $k2 (i8x16.bitmask (v128.or (i8x16.eq (local.get $folded) (i8x16.splat (i32.const 0x5b))) (i8x16.eq (local.get $folded) (i8x16.splat (i32.const 0x5d))))))
    (local.set $bytes (v128.load offset=48 (local.get $at)))
    (local.set $folded (v128.and (local.get $bytes) (i8x16.splat (i32.const 0xdf))))
    (local.set $q3 (i8x16.bitmask (i8x16.eq (local.get $bytes) (local.get $quote_splat))))
    (local.set $b3 (i8x16.bitmask (i8x16.eq (local.get $bytes) (local.get $backslash_splat))))
    (local.set $o3 (i8x16.bitmask (i8x16.eq (local.get $bytes) (local.get $other_splat))))
    (local.set $k3 (i8x16.bitmask (v128.or (i8x16.eq (local.get $folded) (i8x16.splat (i32.const 0x5b))) (i8x16.eq (local.get $folded) (i8x16.splat (i32.const 0x5d))))))
    (local.set $quotes (i64.or (i64.extend_i32_u (i32.or (local.get $q0) (i32.shl (local.get $q1) (i32.const 16))))
        (i64.shl (i64.extend_i32_u (i32.or (local.get $q2) (i32.shl (local.get $q3) (i32.const 16)))) (i64.const 32))))
    (local.set $backslashes (i64.or (i64.extend_i32_u (i32.or (local.get $b0) (i32.shl (local.get $b1) (i32.const 16))))
        (i64.shl (i64.extend_i32_u (i32.or (local.get $b2) (i32.shl (local.get $b3) (i32.const 16)))) (i64.const 32))))
    (local.set $others (i64.or (i64.extend_i32_u (i32.or (local.get $o0) (i32.shl (local.get $o1) (i32.const 16))))
        (i64.shl (i64.extend_i32_u (i32.or (local.get $o2) (i32.shl (local.get $o3) (i32.const 16)))) (i64.const 32))))
    (local.set $brackets (i64.or (i64.extend_i32_u (i32.or (local.get $k0) (i32.shl (local.get $k1) (i32.const 16))))
        (i64.shl (i64.extend_i32_u (i32.or (local.get $k2) (i32.shl (local.get $k3) (i32.const 16)))) (i64.const 32))))
    ;; The escaped bytes: those after an odd run of backslashes. Runs starting on an even bit are told from those
    ;; starting on an odd one by an addition whose carries ripple through each run (simdjson's find_escaped).
    (if (i64.ne (i64.or (local.get $backslashes) (global.get $chunk_escaped)) (i64.const 0))
      (then
        (local.set $backslashes (i64.and (local.get $backslashes) (i64.xor (global.get $chunk_escaped) (i64.const -1))))
        (local.set $follows_escape (i64.or (i64.shl (local.get $backslashes) (i64.const 1)) (global.get $chunk_escaped)))
        (local.set $sum
          (i64.add
            (i64.and (local.get $backslashes)
              (i64.and (i64.const 0xaaaaaaaaaaaaaaaa) (i64.xor (local.get $follows_escape) (i64.const -1))))
            (local.get $backslashes)))
        (global.set $chunk_escaped (i64.extend_i32_u (i64.lt_u (local.get $sum) (local.get $backslashes))))
        (local.set $escaped
          (i64.and
            (i64.xor (i64.const 0x5555555555555555) (i64.shl (local.get $sum) (i64.const 1)))
            (local.get $follows_escape)))
        (local.set $quotes (i64.and (local.get $quotes) (i64.xor (local.get $escaped) (i64.const -1))))
        ;; Escapes are rare: only a chunk with one looks for u's.
        (local.set $part (i32.const 0))
        (loop $u_parts
          (local.set $us (i64.or (local.get $us)
            (i64.shl
              (i64.extend_i32_u
                (i8x16.bitmask (i8x16.eq (v128.load (i32.add (local.get $at) (local.get $part))) (i8x16.splat (i32.const 0x75)))))
              (i64.extend_i32_u (local.get $part)))))
          (local.set $part (i32.add (local.get $part) (i32.const 16)))
          (br_if $u_parts (i32.lt_u (local.get $part) (i32.const 64))))))
    ;; Inside a string: from its opening quote up to, not including, its closing quote (a prefix XOR of the quotes).
    (local.set $in_string (local.get $quotes))
    (local.set $in_string (i64.xor (local.get $in_string) (i64.shl (local.get $in_string) (i64.const 1))))
    (local.set $in_string (i64.xor (local.get $in_string) (i64.shl (local.get $in_string) (i64.const 2))))
    (local.set $in_string (i64.xor (local.get $in_string) (i64.shl (local.get $in_string) (i64.const 4))))
    (local.set $in_string (i64.xor (local.get $in_string) (i64.shl (local.get $in_string) (i64.const 8))))
    (local.set $in_string (i64.xor (local.get $in_string) (i64.shl (local.get $in_string) (i64.const 16))))
    (local.set $in_string (i64.xor (local.get $in_string) (i64.shl (local.get $in_string) (i64.const 32))))
    (local.set $in_string (i64.xor (local.get $in_string) (global.get $chunk_in_string)))
    (global.set $chunk_in_string (i64.shr_s (local.get $in_string) (i64.const 63)))
    (local.set $outside (i64.xor (local.get $in_string) (i64.const -1)))
    (global.set $chunk_brackets (i64.and (local.get $brackets) (local.get $outside)))
    (global.set $chunk_others (i64.and (local.get $others) (local.get $outside)))
    (global.set $chunk_opening_quotes (i64.and (local.get $quotes) (local.get $in_string)))
    (global.set $chunk_closing_quotes (i64.and (local.get $quotes) (local.get $outside)))
    (global.set $chunk_escaped_us (i64.and (local.get $us) (local.get $escaped))))

  ;; From the bracket or brace that opens a container at document offset $from, the offset just past the one that
  ;; closes it, in a text JSON.parse has accepted; the document's length when the text ends first. Sets $line_feeds and
  ;; $last_line_feed to the line feeds before that offset.
  (func $skip_container (param $from i32) (param $length i32) (result i32)
    (local $end i32)
    (local $chunk i32)
    (local $events i64)
    (local $line_feeds i64)
    (local $bit i64)
    (local $depth i32)
    (global.set $line_feeds (i32.const 0))
    (global.set $last_line_feed (i32.const -1))
    (local.set $end (i32.add (global.get $document_start) (local.get $length)))
    (local.set $chunk (i32.add (global.get $document_start) (local.get $from)))
    ;; The bracket at $from lies outside strings and is not escaped.
    (global.set $chunk_escaped (i64.const 0))
    (global.set $chunk_in_string (i64.const 0))
    (block $done
      (loop $chunks
        (br_if $done (i32.ge_u (local.get $chunk) (local.get $end)))
        (call $classify_chunk (local.get $chunk) (i32.const 0x0a))
        (local.set $events (global.get $chunk_brackets))
        (local.set $line_feeds (global.get $chunk_others))
        (block $chunk_done
          (loop $next
            (br_if $chunk_done (i64.eqz (local.get $events)))
            (local.set $bit (i64.ctz (local.get $events)))
            (local.set $events (i64.and (local.get $events) (i64.sub (local.get $events) (i64.const 1))))
            ;; { and [ (bit 1 set) open, } and ] close.
            (if (i32.and (i32.load8_u (i32.add (local.get $chunk) (i32.wrap_i64 (local.get $bit)))) (i32.const 2))
              (then
                (local.set $depth (i32.add (local.get $depth) (i32.const 1)))
                (br $next)))
            (local.set $depth (i32.sub (local.get $depth) (i32.const 1)))
            (br_if $next (local.get $depth))
            (call $count_line_feeds (local.get $chunk)
              (i64.and (local.get $line_feeds) (i64.sub (i64.shl (i64.const 1) (local.get $bit)) (i64.const 1))))
            (return
              (i32.sub (i32.add (local.get $chunk) (i32.add (i32.wrap_i64 (local.get $bit)) (i32.const 1)))
                (global.get $document_start)))))
        (call $count_line_feeds (local.get $chunk) (local.get $line_feeds))
        (local.set $chunk (i32.add (local.get $chunk) (i32.const 64)))
        (br $chunks)))
    (local.get $length))

  ;; Adds the line feeds of a mask over the 64 bytes at $chunk to $line_feeds and $last_line_feed.
  (func $count_line_feeds (param $chunk i32) (param $mask i64)
    (if (i64.eqz (local.get $mask)) (then (return)))
    (global.set $line_feeds (i32.add (global.get $line_feeds) (i32.wrap_i64 (i64.popcnt (local.get $mask)))))
    (global.set $last_line_feed
      (i32.sub
        (i32.add (local.get $chunk) (i32.sub (i32.const 63) (i32.wrap_i64 (i64.clz (local.get $mask)))))
        (global.get $document_start))))

  ;; The bits of a 16-byte block's $mask (the block at $at) for the bytes before $end: a count stops at $end.
  (func $before_end (param $mask i32) (param $at i32) (param $end i32) (result i32)
    (if (result i32) (i32.lt_u (i32.sub (local.get $end) (local.get $at)) (i32.const 16))
      (then (i32.and (local.get $mask) (i32.sub (i32.shl (i32.const 1) (i32.sub (local.get $end) (local.get $at))) (i32.const 1))))
      (else (local.get $mask))))

  ;; Enters the large container (see the scan) closing at document offset $end (just past its bracket) at $depth in the
  ;; table when there is room.
  (func $record_container (param $depth i32) (param $end i32)
    (local $entry i32)
    (if (i32.ge_u (global.get $containers) (global.get $container_capacity)) (then (return)))
    (local.set $entry (i32.add (global.get $container_table) (i32.shl (global.get $containers) (i32.const 3))))
    (i32.store (local.get $entry) (i32.load (i32.add (global.get $container_starts) (i32.shl (local.get $depth) (i32.const 2)))))
    (i32.store offset=4 (local.get $entry) (local.get $end))
    (global.set $containers (i32.add (global.get $containers) (i32.const 1))))

  ;; Sets $line_feeds and $last_line_feed to the line feeds between document offsets $from and $to, as skip_container
  ;; does for a container it skips (in a text JSON.parse has accepted, a line feed never lies inside a string). Counts
  ;; 64 bytes a step in byte lanes, summed before a lane could overflow; the last line feed is looked for backwards.
  (func $line_feeds_between (param $from i32) (param $to i32)
    (local $at i32)
    (local $end i32)
    (local $bulk_end i32)
    (local $steps i32)
    (local $lanes v128)
    (local $mask i32)
    (local $count i32)
    (local.set $at (i32.add (global.get $document_start) (local.get $from)))
    (local.set $end (i32.add (global.get $document_start) (local.get $to)))
    (local.set $bulk_end (i32.sub (local.get $end) (i32.const 64)))
    (block $bulk_done
      (loop $batches
        (br_if $bulk_done (i32.gt_s (local.get $at) (local.get $bulk_end)))
        ;; Each lane gains at most 4 a step: 63 steps stay below 256.
        (local.set $lanes (v128.const i64x2 0 0))
        (local.set $steps (i32.const 63))
        (block $batch_done
          (loop $bulk
            (br_if $batch_done (i32.or (i32.eqz (local.get $steps)) (i32.gt_s (local.get $at) (local.get $bulk_end))))
            (local.set $lanes
              (i8x16.sub
                (i8x16.sub (local.get $lanes) (i8x16.eq (v128.load (local.get $at)) (i8x16.splat (i32.const 0x0a))))
                (i8x16.eq (v128.load offset=16 (local.get $at)) (i8x16.splat (i32.const 0x0a)))))
            (local.set $lanes
              (i8x16.sub
                (i8x16.sub (local.get $lanes) (i8x16.eq (v128.load offset=32 (local.get $at)) (i8x16.splat (i32.const 0x0a))))
                (i8x16.eq (v128.load offset=48 (local.get $at)) (i8x16.splat (i32.const 0x0a)))))
            (local.set $at (i32.add (local.get $at) (i32.const 64)))
            (local.set $steps (i32.sub (local.get $steps) (i32.const 1)))
            (br $bulk)))
        (local.set $lanes (i32x4.extadd_pairwise_i16x8_u (i16x8.extadd_pairwise_i8x16_u (local.get $lanes))))
        (local.set $count
          (i32.add (local.get $count)
            (i32.add
              (i32.add (i32x4.extract_lane 0 (local.get $lanes)) (i32x4.extract_lane 1 (local.get $lanes)))
              (i32.add (i32x4.extract_lane 2 (local.get $lanes)) (i32x4.extract_lane 3 (local.get $lanes))))))
        (br $batches)))
    ;; The rest, 16 bytes a step, without what lies past $to.
    (block $rest_done
      (loop $rest
        (br_if $rest_done (i32.ge_u (local.get $at) (local.get $end)))
        (local.set $count
          (i32.add (local.get $count)
            (i32.popcnt (call $before_end (i8x16.bitmask (i8x16.eq (v128.load (local.get $at)) (i8x16.splat (i32.const 0x0a)))) (local.get $at) (local.get $end)))))
        (local.set $at (i32.add (local.get $at) (i32.const 16)))
        (br $rest)))
    (global.set $line_feeds (local.get $count))
    (global.set $last_line_feed (i32.const -1))
    (if (i32.eqz (local.get $count)) (then (return)))
    ;; Backwards from $to, 16 bytes a step: the last line feed is near the end of most containers.
    (local.set $at (local.get $end))
    (loop $back
      (local.set $at (i32.sub (local.get $at) (i32.const 16)))
      (local.set $mask (i8x16.bitmask (i8x16.eq (v128.load (local.get $at)) (i8x16.splat (i32.const 0x0a)))))
      ;; Bytes at or past $to do not count (at the first step, $at + 16 is $to).
      (br_if $back (i32.eqz (local.get $mask))))
    (global.set $last_line_feed
      (i32.sub (i32.add (local.get $at) (i32.sub (i32.const 31) (i32.clz (local.get $mask)))) (global.get $document_start))))

  ;; The finding locator's walk (runtime/core/locate.ts, which keeps a JavaScript version of it): follows the tree of
  ;; the requested JSON Pointers through a text JSON.parse has accepted, walking into a container only where a request
  ;; lies inside it and skipping everything else (a container the scan recorded by counting its line feeds alone), and
  ;; places each request at the line and column (in code points) of the value or member name it names. The tree, laid
  ;; out by the caller at $tree, is of nodes of 40 bytes (offsets below are from $tree): the value's line and column
  ;; and the name's line and column (0 until placed: the walk writes them); the requests placed at the value and at the
  ;; name; the children, and their list's offset (12 bytes each: the offset and length of the token's UTF-8 bytes, the
  ;; child node's offset); the children whose token is an array index, and their list's offset (8 bytes each: the index,
  ;; the child node's offset; ascending). The root is the node at offset 0.
  (global $walk_tree (mut i32) (i32.const 0))
  (global $walk_end (mut i32) (i32.const 0))
  (global $walk_line (mut i32) (i32.const 0))
  (global $walk_line_start (mut i32) (i32.const 0))
  ;; The column of $walk_counted_to, on the line that starts at $walk_counted_line_start (see $walk_place).
  (global $walk_counted_line_start (mut i32) (i32.const 0))
  (global $walk_counted_to (mut i32) (i32.const 0))
  (global $walk_column (mut i32) (i32.const 0))
  (global $walk_unplaced (mut i32) (i32.const 0))
  ;; The hash table of the recorded containers' ends by their starts (0: none), and its mask of slots.
  (global $walk_ends (mut i32) (i32.const 0))
  (global $walk_ends_mask (mut i32) (i32.const 0))
  ;; The node of the member or element $walk_member entered (0 when no request lies at or below it).
  (global $walk_member_node (mut i32) (i32.const 0))
  ;; Where a member name with escapes is decoded, and how many bytes fit there.
  (global $walk_names (mut i32) (i32.const 0))
  (global $walk_names_bytes i32 (i32.const 4096))

  ;; Walks the document of $length bytes with the tree at $tree (see above), a stack of 16 bytes for each container
  ;; the walk can be inside of at once at $stack, 4 KiB at $names to decode a member name with escapes in and, unless
  ;; $ends is 0, 16 KiB at $ends for a hash table of the containers the structure scan recorded. Places requests until $unplaced of them are placed or the text ends; $bom
  ;; is the length of the byte-order mark, which no column counts. Returns 1, having placed only some, when a member
  ;; name with escapes in an object the walk enters is longer than 4 KiB or escapes half of a surrogate pair alone
  ;; (names are compared as UTF-8 bytes here, which a lone surrogate has none of): the JavaScript scan takes over.
  (func (export "locate") (param $length i32) (param $tree i32) (param $stack i32) (param $names i32) (param $ends i32)
    (param $bom i32) (param $unplaced i32) (result i32)
    (local $at i32)
    (local $node i32)
    (local $top i32)
    (local $byte i32)
    (local $is_array i32)
    (global.set $walk_tree (local.get $tree))
    (global.set $walk_names (local.get $names))
    (global.set $walk_end (i32.add (global.get $document_start) (local.get $length)))
    (global.set $walk_line (i32.const 1))
    (global.set $walk_line_start (i32.add (global.get $document_start) (local.get $bom)))
    (global.set $walk_counted_line_start (i32.const -1))
    (global.set $walk_unplaced (local.get $unplaced))
    (global.set $walk_ends (local.get $ends))
    (if (local.get $ends) (then (call $index_container_ends)))
    (local.set $at (call $walk_whitespace (global.get $walk_line_start)))
    (local.set $node (local.get $tree))
    (local.set $top (local.get $stack))
    (loop $value
      ;; At the start of a value; $node is the tree's node for it when a request lies at or below it.
      (if (local.get $node)
        (then (call $walk_place (local.get $node) (i32.const 0) (i32.load offset=16 (local.get $node)) (local.get $at))))
      (if (i32.eqz (global.get $walk_unplaced)) (then (return (i32.const 0))))
      (local.set $byte (i32.load8_u (local.get $at)))
      (block $skip
        (block $entered
          (br_if $entered (i32.eqz (local.get $node)))
          (br_if $entered (i32.eqz (i32.load offset=24 (local.get $node))))
          (local.set $is_array (i32.eq (local.get $byte) (i32.const 0x5b)))
          (br_if $entered (i32.eqz (i32.or (local.get $is_array) (i32.eq (local.get $byte) (i32.const 0x7b)))))
          (local.set $at (call $walk_whitespace (i32.add (local.get $at) (i32.const 1))))
          ;; An empty container: nothing to walk into. Its closing bracket is ] or } (the opening one plus 2).
          (if (i32.eq (i32.load8_u (local.get $at)) (i32.add (local.get $byte) (i32.const 2)))
            (then
              (local.set $at (i32.add (local.get $at) (i32.const 1)))
              (br $skip)))
          (i32.store (local.get $top) (local.get $node))
          (i32.store offset=4 (local.get $top) (local.get $is_array))
          (i64.store offset=8 (local.get $top) (i64.const 0)) ;; the member's index and the cursor in the index list
          (local.set $top (i32.add (local.get $top) (i32.const 16)))
          (local.set $at (call $walk_member (local.get $at) (i32.sub (local.get $top) (i32.const 16))))
          (if (i32.lt_s (local.get $at) (i32.const 0)) (then (return (i32.const 1))))
          (local.set $node (global.get $walk_member_node))
          (br $value))
        (local.set $at (call $walk_skip_value (local.get $at))))
      ;; After a value: close containers until one continues with another member.
      (loop $after
        (local.set $at (call $walk_whitespace (local.get $at)))
        (if (i32.eq (local.get $top) (local.get $stack)) (then (return (i32.const 0))))
        (if (i32.eq (i32.load8_u (local.get $at)) (i32.const 0x2c))
          (then
            (i32.store offset=8 (i32.sub (local.get $top) (i32.const 16))
              (i32.add (i32.load offset=8 (i32.sub (local.get $top) (i32.const 16))) (i32.const 1)))
            (local.set $at
              (call $walk_member
                (call $walk_whitespace (i32.add (local.get $at) (i32.const 1)))
                (i32.sub (local.get $top) (i32.const 16))))
            (if (i32.lt_s (local.get $at) (i32.const 0)) (then (return (i32.const 1))))
            (local.set $node (global.get $walk_member_node))
            (br $value)))
        (local.set $top (i32.sub (local.get $top) (i32.const 16)))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $after)))
    (unreachable))

  ;; Past whitespace from $at, counting lines, up to the document's end.
  (func $walk_whitespace (param $at i32) (result i32)
    (local $byte i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $at) (global.get $walk_end)))
        (local.set $byte (i32.load8_u (local.get $at)))
        (if (i32.eq (local.get $byte) (i32.const 0x0a))
          (then
            (global.set $walk_line (i32.add (global.get $walk_line) (i32.const 1)))
            (local.set $at (i32.add (local.get $at) (i32.const 1)))
            (global.set $walk_line_start (local.get $at))
            (br $next)))
        (br_if $done
          (i32.and (i32.ne (local.get $byte) (i32.const 0x20))
            (i32.and (i32.ne (local.get $byte) (i32.const 0x0d)) (i32.ne (local.get $byte) (i32.const 0x09)))))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $next)))
    (local.get $at))

  ;; Places the $count requests of $node's value ($field 0) or name ($field 8) at $at, which lies on the current line.
  ;; Columns are counted on from the last place on the same line (the walk only moves forward), so the findings of a
  ;; minified document, all on one line, cost one pass over it rather than one each.
  (func $walk_place (param $node i32) (param $field i32) (param $count i32) (param $at i32)
    (local $place i32)
    (if (i32.eqz (local.get $count)) (then (return)))
    (if (i32.ne (global.get $walk_counted_line_start) (global.get $walk_line_start))
      (then
        (global.set $walk_counted_line_start (global.get $walk_line_start))
        (global.set $walk_counted_to (global.get $walk_line_start))
        (global.set $walk_column (i32.const 1))))
    ;; Code points are the bytes that are not UTF-8 continuation bytes.
    (global.set $walk_column
      (i32.add (global.get $walk_column)
        (i32.sub (i32.sub (local.get $at) (global.get $walk_counted_to))
          (call $continuation_bytes_between
            (i32.sub (global.get $walk_counted_to) (global.get $document_start))
            (i32.sub (local.get $at) (global.get $document_start))))))
    (global.set $walk_counted_to (local.get $at))
    (local.set $place (i32.add (local.get $node) (local.get $field)))
    (i32.store (local.get $place) (global.get $walk_line))
    (i32.store offset=4 (local.get $place) (global.get $walk_column))
    (global.set $walk_unplaced (i32.sub (global.get $walk_unplaced) (local.get $count))))

  ;; Reads the start of the member or element at $at of the container whose stack frame is at $frame; sets
  ;; $walk_member_node and returns where its value starts, or -1 for a member name with escapes it cannot decode.
  (func $walk_member (param $at i32) (param $frame i32) (result i32)
    (local $node i32)
    (local $list i32)
    (local $count i32)
    (local $cursor i32)
    (local $index i32)
    (local $name_end i32)
    (local $name_at i32)
    (local $name_length i32)
    (local $child i32)
    (local $k i32)
    (local.set $node (i32.load (local.get $frame)))
    (if (i32.load offset=4 (local.get $frame))
      (then
        ;; Elements come in order: the cursor moves along the node's ascending index list.
        (local.set $list (i32.add (global.get $walk_tree) (i32.load offset=36 (local.get $node))))
        (local.set $count (i32.load offset=32 (local.get $node)))
        (local.set $index (i32.load offset=8 (local.get $frame)))
        (local.set $cursor (i32.load offset=12 (local.get $frame)))
        (block $found
          (loop $next
            (br_if $found (i32.ge_u (local.get $cursor) (local.get $count)))
            (br_if $found (i32.ge_u (i32.load (i32.add (local.get $list) (i32.shl (local.get $cursor) (i32.const 3)))) (local.get $index)))
            (local.set $cursor (i32.add (local.get $cursor) (i32.const 1)))
            (br $next)))
        (i32.store offset=12 (local.get $frame) (local.get $cursor))
        (global.set $walk_member_node (i32.const 0))
        (if (i32.lt_u (local.get $cursor) (local.get $count))
          (then
            (if (i32.eq (i32.load (i32.add (local.get $list) (i32.shl (local.get $cursor) (i32.const 3)))) (local.get $index))
              (then
                (global.set $walk_member_node
                  (i32.add (global.get $walk_tree)
                    (i32.load offset=4 (i32.add (local.get $list) (i32.shl (local.get $cursor) (i32.const 3))))))))))
        (return (local.get $at))))
    (local.set $name_end (call $walk_name_end (i32.add (local.get $at) (i32.const 1))))
    ;; The name's UTF-8 bytes: its characters as they stand, or decoded where it has escapes.
    (local.set $name_at (i32.add (local.get $at) (i32.const 1)))
    (local.set $name_length (i32.sub (local.get $name_end) (local.get $name_at)))
    (if (global.get $walk_name_escaped)
      (then
        (local.set $name_length (call $decode_name (local.get $name_at) (local.get $name_end)))
        (if (i32.lt_s (local.get $name_length) (i32.const 0)) (then (return (i32.const -1))))
        (local.set $name_at (global.get $walk_names))))
    ;; The child whose token's bytes are the name's.
    (local.set $list (i32.add (global.get $walk_tree) (i32.load offset=28 (local.get $node))))
    (local.set $count (i32.load offset=24 (local.get $node)))
    (global.set $walk_member_node (i32.const 0))
    (block $found
      (loop $children
        (br_if $found (i32.eqz (local.get $count)))
        (if (i32.eq (i32.load offset=4 (local.get $list)) (local.get $name_length))
          (then
            (local.set $child (i32.add (global.get $walk_tree) (i32.load (local.get $list))))
            (local.set $k (i32.const 0))
            (block $differs
              (loop $bytes
                (if (i32.ge_u (local.get $k) (local.get $name_length))
                  (then
                    (global.set $walk_member_node (i32.add (global.get $walk_tree) (i32.load offset=8 (local.get $list))))
                    (br $found)))
                (br_if $differs
                  (i32.ne
                    (i32.load8_u (i32.add (local.get $child) (local.get $k)))
                    (i32.load8_u (i32.add (local.get $name_at) (local.get $k)))))
                (local.set $k (i32.add (local.get $k) (i32.const 1)))
                (br $bytes)))))
        (local.set $list (i32.add (local.get $list) (i32.const 12)))
        (local.set $count (i32.sub (local.get $count) (i32.const 1)))
        (br $children)))
    (if (global.get $walk_member_node)
      (then
        (call $walk_place (global.get $walk_member_node) (i32.const 8)
          (i32.load offset=20 (global.get $walk_member_node)) (local.get $at))))
    ;; Past the name, the colon and the whitespace around it.
    (call $walk_whitespace
      (i32.add (call $walk_whitespace (i32.add (local.get $name_end) (i32.const 1))) (i32.const 1))))

  ;; Whether the member name $walk_name_end last read holds an escape.
  (global $walk_name_escaped (mut i32) (i32.const 0))

  ;; The closing quote of the member name whose characters start at $at (the document's end when none comes); sets
  ;; $walk_name_escaped.
  (func $walk_name_end (param $at i32) (result i32)
    (local $byte i32)
    (global.set $walk_name_escaped (i32.const 0))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $at) (global.get $walk_end)))
        (local.set $byte (i32.load8_u (local.get $at)))
        (br_if $done (i32.eq (local.get $byte) (i32.const 0x22)))
        (if (i32.eq (local.get $byte) (i32.const 0x5c))
          (then
            (global.set $walk_name_escaped (i32.const 1))
            (local.set $at (i32.add (local.get $at) (i32.const 1)))))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $next)))
    (local.get $at))

  ;; Writes the UTF-8 bytes of the member name written at [$at, $end), its escapes decoded, at $walk_names; returns
  ;; their length, or -1 for a name longer than the room there (decoding never lengthens a name) or one that escapes
  ;; half of a surrogate pair alone (no UTF-8 bytes denote it).
  (func $decode_name (param $at i32) (param $end i32) (result i32)
    (local $out i32)
    (local $code_point i32)
    (local $low i32)
    (if (i32.gt_u (i32.sub (local.get $end) (local.get $at)) (global.get $walk_names_bytes)) (then (return (i32.const -1))))
    (local.set $out (global.get $walk_names))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $at) (local.get $end)))
        (local.set $code_point (i32.load8_u (local.get $at)))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (if (i32.eq (local.get $code_point) (i32.const 0x5c))
          (then
            (local.set $code_point (i32.load8_u (local.get $at)))
            (local.set $at (i32.add (local.get $at) (i32.const 1)))
            ;; \b \f \n \r \t and \u; any other escaped character (\" \\ \/) stands for itself.
            (if (i32.eq (local.get $code_point) (i32.const 0x62)) (then (local.set $code_point (i32.const 0x08))))
            (if (i32.eq (local.get $code_point) (i32.const 0x66)) (then (local.set $code_point (i32.const 0x0c))))
            (if (i32.eq (local.get $code_point) (i32.const 0x6e)) (then (local.set $code_point (i32.const 0x0a))))
            (if (i32.eq (local.get $code_point) (i32.const 0x72)) (then (local.set $code_point (i32.const 0x0d))))
            (if (i32.eq (local.get $code_point) (i32.const 0x74)) (then (local.set $code_point (i32.const 0x09))))
            (if (i32.eq (local.get $code_point) (i32.const 0x75))
              (then
                (local.set $code_point (call $escape_unit (local.get $at)))
                (local.set $at (i32.add (local.get $at) (i32.const 4)))
                (if (i32.lt_u (i32.sub (local.get $code_point) (i32.const 0xd800)) (i32.const 0x800))
                  (then
                    ;; A high surrogate followed by an escaped low one; anything else is a lone surrogate.
                    (if (i32.ge_u (local.get $code_point) (i32.const 0xdc00)) (then (return (i32.const -1))))
                    (if (i32.gt_u (i32.add (local.get $at) (i32.const 6)) (local.get $end)) (then (return (i32.const -1))))
                    (if (i32.ne (i32.load16_u (local.get $at)) (i32.const 0x755c)) (then (return (i32.const -1))))
                    (local.set $low (call $escape_unit (i32.add (local.get $at) (i32.const 2))))
                    (if (i32.ge_u (i32.sub (local.get $low) (i32.const 0xdc00)) (i32.const 0x400)) (then (return (i32.const -1))))
                    (local.set $at (i32.add (local.get $at) (i32.const 6)))
                    (local.set $code_point
                      (i32.add (i32.const 0x10000)
                        (i32.or (i32.shl (i32.sub (local.get $code_point) (i32.const 0xd800)) (i32.const 10))
                          (i32.sub (local.get $low) (i32.const 0xdc00)))))))))
            (local.set $out (call $write_utf8 (local.get $out) (local.get $code_point)))
            (br $next)))
        ;; An unescaped byte stands for itself.
        (i32.store8 (local.get $out) (local.get $code_point))
        (local.set $out (i32.add (local.get $out) (i32.const 1)))
        (br $next)))
    (i32.sub (local.get $out) (global.get $walk_names)))

  ;; Writes the UTF-8 bytes of $code_point at $out; returns where they end.
  (func $write_utf8 (param $out i32) (param $code_point i32) (result i32)
    (if (i32.lt_u (local.get $code_point) (i32.const 0x80))
      (then
        (i32.store8 (local.get $out) (local.get $code_point))
        (return (i32.add (local.get $out) (i32.const 1)))))
    (if (i32.lt_u (local.get $code_point) (i32.const 0x800))
      (then
        (i32.store8 (local.get $out) (i32.or (i32.const 0xc0) (i32.shr_u (local.get $code_point) (i32.const 6))))
        (i32.store8 offset=1 (local.get $out) (i32.or (i32.const 0x80) (i32.and (local.get $code_point) (i32.const 0x3f))))
        (return (i32.add (local.get $out) (i32.const 2)))))
    (if (i32.lt_u (local.get $code_point) (i32.const 0x10000))
      (then
        (i32.store8 (local.get $out) (i32.or (i32.const 0xe0) (i32.shr_u (local.get $code_point) (i32.const 12))))
        (i32.store8 offset=1 (local.get $out) (i32.or (i32.const 0x80) (i32.and (i32.shr_u (local.get $code_point) (i32.const 6)) (i32.const 0x3f))))
        (i32.store8 offset=2 (local.get $out) (i32.or (i32.const 0x80) (i32.and (local.get $code_point) (i32.const 0x3f))))
        (return (i32.add (local.get $out) (i32.const 3)))))
    (i32.store8 (local.get $out) (i32.or (i32.const 0xf0) (i32.shr_u (local.get $code_point) (i32.const 18))))
    (i32.store8 offset=1 (local.get $out) (i32.or (i32.const 0x80) (i32.and (i32.shr_u (local.get $code_point) (i32.const 12)) (i32.const 0x3f))))
    (i32.store8 offset=2 (local.get $out) (i32.or (i32.const 0x80) (i32.and (i32.shr_u (local.get $code_point) (i32.const 6)) (i32.const 0x3f))))
    (i32.store8 offset=3 (local.get $out) (i32.or (i32.const 0x80) (i32.and (local.get $code_point) (i32.const 0x3f))))
    (i32.add (local.get $out) (i32.const 4)))

  ;; Past the value at $at, counting the lines of a container.
  (func $walk_skip_value (param $at i32) (result i32)
    (local $byte i32)
    (local $from i32)
    (local $end i32)
    (local.set $byte (i32.load8_u (local.get $at)))
    (if (i32.eq (local.get $byte) (i32.const 0x22))
      (then (return (i32.add (call $string_end (i32.add (local.get $at) (i32.const 1)) (global.get $walk_end)) (i32.const 1)))))
    (if (i32.eq (i32.and (local.get $byte) (i32.const 0xdf)) (i32.const 0x5b))
      (then
        (local.set $from (i32.sub (local.get $at) (global.get $document_start)))
        (local.set $end (call $recorded_end (local.get $from)))
        (if (i32.ge_s (local.get $end) (i32.const 0))
          (then (call $line_feeds_between (local.get $from) (local.get $end)))
          (else
            (local.set $end
              (call $skip_container (local.get $from) (i32.sub (global.get $walk_end) (global.get $document_start))))))
        (if (global.get $line_feeds)
          (then
            (global.set $walk_line (i32.add (global.get $walk_line) (global.get $line_feeds)))
            (global.set $walk_line_start
              (i32.add (global.get $document_start) (i32.add (global.get $last_line_feed) (i32.const 1))))))
        (return (i32.add (global.get $document_start) (local.get $end)))))
    ;; A number, true, false or null.
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $at) (global.get $walk_end)))
        (local.set $byte (i32.load8_u (local.get $at)))
        (br_if $done
          (i32.or
            (i32.or (i32.eq (local.get $byte) (i32.const 0x2c)) (i32.eq (i32.and (local.get $byte) (i32.const 0xdf)) (i32.const 0x5d)))
            (i32.or
              (i32.or (i32.eq (local.get $byte) (i32.const 0x20)) (i32.eq (local.get $byte) (i32.const 0x0a)))
              (i32.or (i32.eq (local.get $byte) (i32.const 0x0d)) (i32.eq (local.get $byte) (i32.const 0x09))))))
        (local.set $at (i32.add (local.get $at) (i32.const 1)))
        (br $next)))
    (local.get $at))

  ;; Puts the recorded containers (see $record_container) in the hash table at $walk_ends: (start + 1, end) by start,
  ;; in the fewest slots, a power of two, at least twice as many as the containers.
  (func $index_container_ends
    (local $slots i32)
    (local $at i32)
    (local $entry i32)
    (local $slot i32)
    (local.set $slots (i32.const 16))
    (loop $grow
      (if (i32.lt_u (local.get $slots) (i32.shl (global.get $containers) (i32.const 1)))
        (then
          (local.set $slots (i32.shl (local.get $slots) (i32.const 1)))
          (br $grow))))
    (global.set $walk_ends_mask (i32.sub (local.get $slots) (i32.const 1)))
    (local.set $at (global.get $walk_ends))
    (loop $clear
      (v128.store (local.get $at) (v128.const i64x2 0 0))
      (local.set $at (i32.add (local.get $at) (i32.const 16)))
      (br_if $clear (i32.lt_u (local.get $at) (i32.add (global.get $walk_ends) (i32.shl (local.get $slots) (i32.const 3))))))
    (local.set $entry (global.get $container_table))
    (local.set $at (i32.add (global.get $container_table) (i32.shl (global.get $containers) (i32.const 3))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $entry) (local.get $at)))
        (local.set $slot (call $ends_slot (i32.load (local.get $entry))))
        (loop $probe
          (if (i32.load (local.get $slot))
            (then
              (local.set $slot (call $next_ends_slot (local.get $slot)))
              (br $probe))))
        (i32.store (local.get $slot) (i32.add (i32.load (local.get $entry)) (i32.const 1)))
        (i32.store offset=4 (local.get $slot) (i32.load offset=4 (local.get $entry)))
        (local.set $entry (i32.add (local.get $entry) (i32.const 8)))
        (br $next))))

  ;; The slot a container starting at document offset $start hashes to (Fibonacci hashing).
  (func $ends_slot (param $start i32) (result i32)
    (i32.add (global.get $walk_ends)
      (i32.shl
        (i32.and (i32.shr_u (i32.mul (local.get $start) (i32.const 0x9e3779b1)) (i32.const 16)) (global.get $walk_ends_mask))
        (i32.const 3))))

  (func $next_ends_slot (param $slot i32) (result i32)
    (i32.add (global.get $walk_ends)
      (i32.and (i32.add (i32.sub (local.get $slot) (global.get $walk_ends)) (i32.const 8)) (i32.shl (global.get $walk_ends_mask) (i32.const 3)))))

  ;; The recorded end of the container starting at document offset $start, or -1.
  (func $recorded_end (param $start i32) (result i32)
    (local $slot i32)
    (local $key i32)
    (if (i32.eqz (global.get $walk_ends)) (then (return (i32.const -1))))
    (local.set $slot (call $ends_slot (local.get $start)))
    (loop $probe
      (local.set $key (i32.load (local.get $slot)))
      (if (i32.eqz (local.get $key)) (then (return (i32.const -1))))
      (if (i32.eq (local.get $key) (i32.add (local.get $start) (i32.const 1)))
        (then (return (i32.load offset=4 (local.get $slot)))))
      (local.set $slot (call $next_ends_slot (local.get $slot)))
      (br $probe))
    (unreachable))

  ;; The structure scan. Acts on member names, commas, brackets, braces and escaped u's (a \u escape to look at), in
  ;; document order, so that the answer is the same as reading the bytes one by one. compact runs the same scan on the
  ;; chunks it reads when asked to, which saves reading the document again.
  (func (export "scan") (param $length i32) (result i32)
    (local $end i32)
    (local $chunk i32)
    (call $scan_start)
    (global.set $chunk_escaped (i64.const 0))
    (global.set $chunk_in_string (i64.const 0))
    (local.set $end (i32.add (global.get $document_start) (local.get $length)))
    (local.set $chunk (global.get $document_start))
    (block $done
      (loop $chunks
        (br_if $done (i32.ge_u (local.get $chunk) (local.get $end)))
        (call $classify_chunk (local.get $chunk) (i32.const 0x2c))
        (br_if $done
          (call $scan_chunk (local.get $chunk)
            (i64.or
              (i64.or (global.get $chunk_brackets) (global.get $chunk_others))
              (i64.or (global.get $chunk_opening_quotes) (global.get $chunk_escaped_us)))
            (global.get $chunk_closing_quotes)
            (local.get $end)))
        (local.set $chunk (i32.add (local.get $chunk) (i32.const 64)))
        (br $chunks)))
    (global.get $flags))

  ;; The scan's state from one chunk to the next: the depth of the open container, and whether a member name is next.
  (global $scan_depth (mut i32) (i32.const 0))
  (global $scan_expect_name (mut i32) (i32.const 0))
  ;; What $scan_chunk returns besides 0 (go on): the answer is known (nesting too deep), or the text is not JSON.
  (global $scan_answered i32 (i32.const 1))
  (global $scan_abandoned i32 (i32.const 2))

  ;; Split points, for JavaScript to parse a large text in pieces (runtime/core/json-pieces.ts): compact with
  ;; $record_splits (the largest piece, in bytes) has the scan list, in document order, in the table at $split_table, as
  ;; (offset in the text << 3) | kind: the brackets and braces of the containers larger than a piece, down to
  ;; $split_depth, and of their commas, enough that at most an eighth of a piece lies between two (the kinds: bit 0 set
  ;; for an object's brace, bit 1 for a closing one; a comma is 4). The comma after a container larger than a piece is
  ;; always among them. $split_count is -1 when the table filled up. A container's size is known when it closes: its
  ;; brace and what followed are listed from its opening, and dropped again if it turns out small. Offsets must stay
  ;; below 2^29: compact's caller asks for split points only for shorter texts.
  (global $split_table (export "split_table") i32 (i32.const 81920))
  (global $split_capacity i32 (i32.const 8192))
  (global $split_depth i32 (i32.const 5))
  ;; $split_depth while split points are being listed, 0 otherwise: the scan calls $split_event for events down to it.
  (global $split_listed_depth (mut i32) (i32.const 0))
  ;; Per depth up to $split_depth (11 at most here), i32 each: the table's length before the open container's brace,
  ;; and the offset of its last listed comma (or of its brace).
  (global $split_marks i32 (i32.const 78112))
  (global $split_last_listed i32 (i32.const 78160))
  (global $split_count (export "split_count") (mut i32) (i32.const 0))
  (global $split_piece (mut i32) (i32.const 0))
  ;; Where compact writes the text: its $out_start, kept here because reading that local in compact's loop made every
  ;; chunk about 3% slower.
  (global $split_text (mut i32) (i32.const 0))
  ;; The chunk being scanned: where it goes in the text, which of its bytes are kept, which are non-ASCII (escaped, so
  ;; wider in the text).
  (global $split_out (mut i32) (i32.const 0))
  (global $split_kept (mut i64) (i64.const 0))
  (global $split_non_ascii (mut i64) (i64.const 0))

  ;; A bracket, brace or comma (at $at in the chunk at $chunk) of the container at $depth, for the split points.
  (func $split_event (param $chunk i32) (param $at i32) (param $byte i32) (param $depth i32)
    (local $offset i32)
    (local $kind i32)
    (local $mark_at i32)
    (local $last_at i32)
    (local.set $offset (call $text_offset (local.get $chunk) (local.get $at)))
    (local.set $mark_at (i32.add (global.get $split_marks) (i32.shl (local.get $depth) (i32.const 2))))
    (local.set $last_at (i32.add (global.get $split_last_listed) (i32.shl (local.get $depth) (i32.const 2))))
    (if (i32.eq (local.get $byte) (i32.const 0x2c))
      (then
        (if (i32.lt_u (i32.sub (local.get $offset) (i32.load (local.get $last_at))) (i32.shr_u (global.get $split_piece) (i32.const 3)))
          (then (return)))
        (i32.store (local.get $last_at) (local.get $offset))
        (local.set $kind (i32.const 4)))
      (else
        ;; Bit 5 tells braces from brackets, bit 1 opening ones from closing ones.
        (local.set $kind
          (i32.or (i32.and (i32.shr_u (local.get $byte) (i32.const 5)) (i32.const 1))
            (i32.xor (i32.and (local.get $byte) (i32.const 2)) (i32.const 2))))
        (if (i32.and (local.get $kind) (i32.const 2))
          (then
            ;; A closing one: a container no larger than a piece is dropped with all listed since its opening.
            (if (i32.le_u
                  (i32.sub (local.get $offset)
                    (i32.shr_u (i32.load (i32.add (global.get $split_table) (i32.shl (i32.load (local.get $mark_at)) (i32.const 2)))) (i32.const 3)))
                  (global.get $split_piece))
              (then
                (global.set $split_count (i32.load (local.get $mark_at)))
                (return))))
          (else
            (i32.store (local.get $mark_at) (global.get $split_count))
            (i32.store (local.get $last_at) (local.get $offset))))))
    (if (i32.ge_u (global.get $split_count) (global.get $split_capacity))
      (then
        (global.set $split_listed_depth (i32.const 0))
        (global.set $split_count (i32.const -1))
        (return)))
    (i32.store (i32.add (global.get $split_table) (i32.shl (global.get $split_count) (i32.const 2)))
      (i32.or (i32.shl (local.get $offset) (i32.const 3)) (local.get $kind)))
    (global.set $split_count (i32.add (global.get $split_count) (i32.const 1))))

  ;; Where the byte at $at of the chunk at $chunk goes in the text: past the chunk's kept bytes before it, widened by
  ;; their escapes. An escape is 6 bytes for a character of 2 or 3, 12 (a surrogate pair) for one of 4: its first byte
  ;; adds 5 or 11 and each continuation byte takes 1 away (those of a character that began in the chunk before too).
  (func $text_offset (param $chunk i32) (param $at i32) (result i32)
    (local $before i64)
    (local $offset i32)
    (local $wider i64)
    (local $byte i32)
    (local.set $before (i64.sub (i64.shl (i64.const 1) (i64.extend_i32_u (i32.sub (local.get $at) (local.get $chunk)))) (i64.const 1)))
    (local.set $offset
      (i32.add (global.get $split_out) (i32.wrap_i64 (i64.popcnt (i64.and (global.get $split_kept) (local.get $before))))))
    (local.set $wider (i64.and (global.get $split_non_ascii) (local.get $before)))
    (block $counted
      (loop $characters
        (br_if $counted (i64.eqz (local.get $wider)))
        (local.set $byte (i32.load8_u (i32.add (local.get $chunk) (i32.wrap_i64 (i64.ctz (local.get $wider))))))
        (local.set $offset
          (i32.add (local.get $offset)
            (if (result i32) (i32.lt_u (local.get $byte) (i32.const 0xc0))
              (then (i32.const -1))
              (else (select (i32.const 11) (i32.const 5) (i32.ge_u (local.get $byte) (i32.const 0xf0)))))))
        (local.set $wider (i64.and (local.get $wider) (i64.sub (local.get $wider) (i64.const 1))))
        (br $characters)))
    (local.get $offset))

  (func $scan_start
    (global.set $split_listed_depth (i32.const 0))
    (global.set $flags (i32.const 0))
    (global.set $containers (i32.const 0))
    (global.set $scan_depth (i32.const 0))
    (global.set $scan_expect_name (i32.const 0)))

  ;; Acts on the $events of the 64 bytes at $chunk (bit k: byte k) in order: opening quotes, brackets, braces, commas
  ;; outside strings, and escaped u's; $closes are the closing quotes, where member names end. $end is the document's
  ;; end, past which a name that does not close is not searched (in a text JSON.parse has not read yet).
  (func $scan_chunk (param $chunk i32) (param $events i64) (param $closes i64) (param $end i32) (result i32)
    (local $at i32)
    (local $byte i32)
    (local $close i32)
    (local $container_end i32)
    (local $depth i32)
    (local $expect_name i32)
    (local $name_at i32)
    (local $name_hash i32)
    (local $name_byte i32)
    (local $name_count_at i32)
    (local $name_count i32)
    (local $name_list i32)
    (local $name_index i32)
    (local.set $depth (global.get $scan_depth))
    (local.set $expect_name (global.get $scan_expect_name))
    (block $chunk_done
      (loop $next
        (br_if $chunk_done (i64.eqz (local.get $events)))
        (local.set $at (i32.add (local.get $chunk) (i32.wrap_i64 (i64.ctz (local.get $events)))))
        (local.set $events (i64.and (local.get $events) (i64.sub (local.get $events) (i64.const 1))))
        (local.set $byte (i32.load8_u (local.get $at)))
        (if (i32.eq (local.get $byte) (i32.const 0x22))
          (then
            ;; A string value needs nothing; a member name ends at the next closing quote, in this chunk or later.
            (br_if $next (i32.eqz (local.get $expect_name)))
            (local.set $expect_name (i32.const 0))
            (local.set $closes
              (i64.and (local.get $closes) (i64.shl (i64.const -2) (i64.extend_i32_u (i32.sub (local.get $at) (local.get $chunk))))))
            (local.set $close
              (if (result i32) (i64.eqz (local.get $closes))
                (then (call $string_end (i32.add (local.get $at) (i32.const 1)) (local.get $end)))
                (else (i32.add (local.get $chunk) (i32.wrap_i64 (i64.ctz (local.get $closes)))))))
            ;; Lists the name's hash (FNV-1a over its bytes) in the open object at $depth; flags the text for the exact
            ;; pass when the object already lists that hash, when the name holds an escape, or when the list is full.
            ;; Written here rather than called: a call per member name cost the scan 6 to 8%.
            (local.set $name_at (i32.add (local.get $at) (i32.const 1)))
            (local.set $name_hash (i32.const 0x811c9dc5))
            (block $hashed
              (loop $name_bytes
                (br_if $hashed (i32.ge_u (local.get $name_at) (local.get $close)))
                (local.set $name_byte (i32.load8_u (local.get $name_at)))
                (if (i32.eq (local.get $name_byte) (i32.const 0x5c))
                  (then (global.set $flags (i32.or (global.get $flags) (global.get $needs_text_pass)))))
                (local.set $name_hash (i32.mul (i32.xor (local.get $name_hash) (local.get $name_byte)) (i32.const 0x01000193)))
                (local.set $name_at (i32.add (local.get $name_at) (i32.const 1)))
                (br $name_bytes)))
            (local.set $name_count_at (i32.add (global.get $name_counts) (i32.shl (local.get $depth) (i32.const 2))))
            (local.set $name_count (i32.load (local.get $name_count_at)))
            (local.set $name_list (i32.add (global.get $name_lists) (i32.shl (local.get $depth) (i32.const 8))))
            (local.set $name_index (i32.const 0))
            (block $listed
              (loop $compare
                (br_if $listed (i32.ge_u (local.get $name_index) (local.get $name_count)))
                (if (i32.eq (i32.load (i32.add (local.get $name_list) (i32.shl (local.get $name_index) (i32.const 2)))) (local.get $name_hash))
                  (then
                    (global.set $flags (i32.or (global.get $flags) (global.get $needs_text_pass)))
                    (br $next)))
                (local.set $name_index (i32.add (local.get $name_index) (i32.const 1)))
                (br $compare)))
            (if (i32.eq (local.get $name_count) (i32.const 64))
              (then
                (global.set $flags (i32.or (global.get $flags) (global.get $needs_text_pass)))
                (br $next)))
            (i32.store (i32.add (local.get $name_list) (i32.shl (local.get $name_count) (i32.const 2))) (local.get $name_hash))
            (i32.store (local.get $name_count_at) (i32.add (local.get $name_count) (i32.const 1)))
            (br $next)))
        (if (i32.eq (local.get $byte) (i32.const 0x75))
          (then
            (if (call $excluded_escape (i32.add (local.get $at) (i32.const 1)))
              (then (global.set $flags (i32.or (global.get $flags) (global.get $needs_text_pass)))))
            (br $next)))
        (if (i32.eq (local.get $byte) (i32.const 0x2c))
          (then
            (local.set $expect_name (i32.load8_u (i32.add (global.get $is_object) (local.get $depth))))
            (if (i32.le_u (local.get $depth) (global.get $split_listed_depth))
              (then (call $split_event (local.get $chunk) (local.get $at) (local.get $byte) (local.get $depth))))
            (br $next)))
        ;; Only brackets and braces remain: { and [ (bit 1 set) open, } and ] close.
        (if (i32.eqz (i32.and (local.get $byte) (i32.const 2)))
          (then
            ;; More closing than opening brackets: not JSON (the scan of a text before JSON.parse has read it).
            (if (i32.eqz (local.get $depth)) (then (return (global.get $scan_abandoned))))
            ;; A container of at least $recorded_bytes is large; most are not, and cost no call. (Past $recorded_depth the
            ;; start read is not one, but the test's first half is false.)
            (local.set $container_end (i32.sub (i32.add (local.get $at) (i32.const 1)) (global.get $document_start)))
            (if (i32.and
                  (i32.le_u (local.get $depth) (global.get $recorded_depth))
                  (i32.ge_u
                    (i32.sub (local.get $container_end)
                      (i32.load (i32.add (global.get $container_starts) (i32.shl (local.get $depth) (i32.const 2)))))
                    (global.get $recorded_bytes)))
              (then (call $record_container (local.get $depth) (local.get $container_end))))
            (if (i32.le_u (local.get $depth) (global.get $split_listed_depth))
              (then (call $split_event (local.get $chunk) (local.get $at) (local.get $byte) (local.get $depth))))
            (local.set $depth (i32.sub (local.get $depth) (i32.const 1)))
            (local.set $expect_name (i32.const 0))
            (br $next)))
        (local.set $depth (i32.add (local.get $depth) (i32.const 1)))
        (if (i32.gt_u (local.get $depth) (i32.const 256))
          (then
            (global.set $flags (i32.or (global.get $flags) (global.get $too_deep)))
            (return (global.get $scan_answered))))
        (if (i32.le_u (local.get $depth) (global.get $recorded_depth))
          (then
            (i32.store (i32.add (global.get $container_starts) (i32.shl (local.get $depth) (i32.const 2)))
              (i32.sub (local.get $at) (global.get $document_start)))))
        (if (i32.le_u (local.get $depth) (global.get $split_listed_depth))
              (then (call $split_event (local.get $chunk) (local.get $at) (local.get $byte) (local.get $depth))))
        (local.set $expect_name (i32.eq (local.get $byte) (i32.const 0x7b)))
        (i32.store8 (i32.add (global.get $is_object) (local.get $depth)) (local.get $expect_name))
        (if (local.get $expect_name)
          (then (i32.store (i32.add (global.get $name_counts) (i32.shl (local.get $depth) (i32.const 2))) (i32.const 0))))
        (br $next)))
    (global.set $scan_depth (local.get $depth))
    (global.set $scan_expect_name (local.get $expect_name))
    (i32.const 0))

  ;; UTF-8 continuation bytes (10xxxxxx) from document offset $from to $to: the locator's columns count code points,
  ;; the bytes that are not continuation bytes, and a minified document's line is the whole document.
  (func $continuation_bytes_between (param $from i32) (param $to i32) (result i32)
    (local $at i32)
    (local $end i32)
    (local $count i32)
    (local.set $at (i32.add (global.get $document_start) (local.get $from)))
    (local.set $end (i32.add (global.get $document_start) (local.get $to)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_s (local.get $at) (local.get $end)))
        ;; As signed bytes, continuation bytes are the ones below 0xc0 (-64).
        (local.set $count
          (i32.add (local.get $count)
            (i32.popcnt (call $before_end (i8x16.bitmask (i8x16.lt_s (v128.load (local.get $at)) (i8x16.splat (i32.const 0xc0)))) (local.get $at) (local.get $end)))))
        (local.set $at (i32.add (local.get $at) (i32.const 16)))
        (br $next)))
    (local.get $count))

  ;; The one-byte text's compaction: copies the document at $from to $out without the whitespace outside strings
  ;; that follows a separator (a quote, bracket, brace, comma or colon), which JSON.parse would only skip: indentation
  ;; is two fifths of pretty-printed OSCAL, and a shorter text is allocated and parsed for less. Whitespace after any
  ;; other byte is kept, so that no two tokens run together (`1 2` must not become `12`): the text then holds the same
  ;; tokens in the same order, valid JSON exactly when the document is, denoting the same value. Strings are told apart
  ;; as $classify_chunk does, 64 bytes at a time, but here, with only the masks this pass needs: calling it (it also
  ;; finds brackets, commas and \u escapes) made the pass 0.083 ms against 0.060 ms on the FedRAMP SSP template. A
  ;; chunk without whitespace to drop is copied whole, others run by run; a chunk that holds non-ASCII bytes (rare)
  ;; byte by byte, each character checked to be well-formed UTF-8 and written as a \u escape (a surrogate pair above
  ;; U+FFFF), so that the text is ASCII without a pass of its own.
  ;; Returns the length written, or -1 when the text is better decoded as it is: it is not well-formed UTF-8, a
  ;; non-ASCII character follows a backslash (where an escape would change the text's meaning), or it holds more than
  ;; $most_escaped non-ASCII bytes. The caller leaves room for $length + 2 * min($length, $most_escaped) + 64 bytes at
  ;; $out (a character grows at most 3-fold; a run's last store may write up to 31 bytes past the text), which lies
  ;; past the 64 bytes after the document, as for the other functions.
  ;; With $scan set (and $from at $document_start), compact also runs the structure scan (see scan) on the chunks it
  ;; reads, and sets $compacted_scan to the scan's answer, or to -1 when the text turned out not to be JSON.
  (global $compacted_scan (export "compacted_scan") (mut i32) (i32.const -1))
  (func (export "compact") (param $from i32) (param $length i32) (param $out i32) (param $scan i32) (param $most_escaped i32)
    (param $record_splits i32) (result i32)
    (local $chunk i32)
    (local $end i32)
    (local $out_start i32)
    (local $bytes v128)
    (local $nibbles v128)
    (local $whitespace v128)
    (local $separators v128)
    (local $q0 i32) (local $q1 i32) (local $q2 i32) (local $q3 i32)
    (local $w0 i32) (local $w1 i32) (local $w2 i32) (local $w3 i32)
    (local $s0 i32) (local $s1 i32) (local $s2 i32) (local $s3 i32)
    (local $rare v128)
    (local $non_ascii i64)
    (local $quotes i64)
    (local $backslashes i64)
    (local $spaces i64)
    (local $after_separator i64)
    (local $escaped i64)
    (local $follows_escape i64)
    (local $sum i64)
    (local $in_string i64)
    (local $dropped i64)
    (local $kept i64)
    (local $rest i64)
    (local $run_start i32)
    (local $run_length i32)
    (local $copied i32)
    (local $colons i64)
    (local $us i64)
    (local $escaped_us i64)
    (local $part i32)
    (local $scan_outcome i32)
    ;; Carried from one chunk to the next: whether its first byte is escaped, lies inside a string, follows whitespace,
    ;; follows a separator, or follows dropped whitespace. The document's start counts as a separator.
    (local $carry_escaped i64)
    (local $carry_in_string i64)
    (local $carry_space i64)
    (local $carry_separator i64)
    (local $carry_dropped i64)
    (local.set $carry_separator (i64.const 1))
    (global.set $escape_from (local.get $from))
    (global.set $escape_budget (local.get $most_escaped))
    (global.set $escape_resume_at (i32.const 0))
    (if (local.get $scan) (then (call $scan_start)) (else (local.set $scan_outcome (global.get $scan_abandoned))))
    (global.set $split_piece (local.get $record_splits))
    (global.set $split_listed_depth
      (select (global.get $split_depth) (i32.const 0) (i32.and (local.get $scan) (i32.ne (local.get $record_splits) (i32.const 0)))))
    (global.set $split_count (i32.const 0))
    (global.set $split_text (local.get $out))
    (local.set $whitespace (v128.load (global.get $whitespace_table)))
    (local.set $separators (v128.load (global.get $separator_table)))
    (local.set $chunk (local.get $from))
    (local.set $end (i32.add (local.get $from) (local.get $length)))
    (local.set $out_start (local.get $out))
    (block $done
      (loop $chunks
        (br_if $done (i32.ge_u (local.get $chunk) (local.get $end)))
        ;; Bit k of each mask is byte k of the chunk; the four 16-byte steps are written out, as in $classify_chunk.
        (local.set $bytes (v128.load offset=0 (local.get $chunk)))
        (local.set $rare (v128.or (local.get $rare) (v128.or (local.get $bytes) (i8x16.eq (local.get $bytes) (i8x16.splat (i32.const 0x5c))))))
        (local.set $nibbles (v128.and (local.get $bytes) (i8x16.splat (i32.const 0x0f))))
        (local.set $q0 (i8x16.bitmask (i8x16.eq (local.get $bytes) (i8x16.splat (i32.const 0x22)))))
        (local.set $w0 (i8x16.bitmask (i8x16.eq (i8x16.swizzle (local.get $whitespace) (local.get $nibbles)) (local.get $bytes))))
        (local.set $s0 (i8x16.bitmask (i8x16.eq (i8x16.swizzle (local.get $separators) (local.get $nibbles))
          (v128.and (local.get $bytes) (i8x16.splat (i32.const 0xdf))))))
        (local.set $bytes (v128.load offset=16 (local.get $chunk)))
        (local.set $rare (v128.or (local.get $rare) (v128.or (local.get $bytes) (i8x16.eq (local.get $bytes) (i8x16.splat (i32.const 0x5c))))))
        (local.set $nibbles (v128.and (local.get $bytes) (i8x16.splat (i32.const 0x0f))))
        (local.set $q1 (i8x16.bitmask (i8x16.eq (local.get $bytes) (i8x16.splat (i32.const 0x22)))))
        (local.set $w1 (i8x16.bitmask (i8x16.eq (i8x16.swizzle (local.get $whitespace) (local.get $nibbles)) (local.get $bytes))))
        (local.set $s1 (i8x16.bitmask (i8x16.eq (i8x16.swizzle (local.get $separators) (local.get $nibbles))
          (v128.and (local.get $bytes) (i8x16.splat (i32.const 0xdf))))))
        (local.set $bytes (v128.load offset=32 (local.get $chunk)))
        (local.set $rare (v128.or (local.get $rare) (v128.or (local.get $bytes) (i8x16.eq (local.get $bytes) (i8x16.splat (i32.const 0x5c))))))
        (local.set $nibbles (v128.and (local.get $bytes) (i8x16.splat (i32.const 0x0f))))
        (local.set $q2 (i8x16.bitmask (i8x16.eq (local.get $bytes) (i8x16.splat (i32.const 0x22)))))
        (local.set $w2 (i8x16.bitmask (i8x16.eq (i8x16.swizzle (local.get $whitespace) (local.get $nibbles)) (local.get $bytes))))
        (local.set $s2 (i8x16.bitmask (i8x16.eq (i8x16.swizzle (local.get $separators) (local.get $nibbles))
          (v128.and (local.get $bytes) (i8x16.splat (i32.const 0xdf))))))
        (local.set $bytes (v128.load offset=48 (local.get $chunk)))
        (local.set $rare (v128.or (local.get $rare) (v128.or (local.get $bytes) (i8x16.eq (local.get $bytes) (i8x16.splat (i32.const 0x5c))))))
        (local.set $nibbles (v128.and (local.get $bytes) (i8x16.splat (i32.const 0x0f))))
        (local.set $q3 (i8x16.bitmask (i8x16.eq (local.get $bytes) (i8x16.splat (i32.const 0x22)))))
        (local.set $w3 (i8x16.bitmask (i8x16.eq (i8x16.swizzle (local.get $whitespace) (local.get $nibbles)) (local.get $bytes))))
        (local.set $s3 (i8x16.bitmask (i8x16.eq (i8x16.swizzle (local.get $separators) (local.get $nibbles))
          (v128.and (local.get $bytes) (i8x16.splat (i32.const 0xdf))))))
        (local.set $quotes (i64.or (i64.extend_i32_u (i32.or (local.get $q0) (i32.shl (local.get $q1) (i32.const 16))))
            (i64.shl (i64.extend_i32_u (i32.or (local.get $q2) (i32.shl (local.get $q3) (i32.const 16)))) (i64.const 32))))
        (local.set $spaces (i64.or (i64.extend_i32_u (i32.or (local.get $w0) (i32.shl (local.get $w1) (i32.const 16))))
            (i64.shl (i64.extend_i32_u (i32.or (local.get $w2) (i32.shl (local.get $w3) (i32.const 16)))) (i64.const 32))))
        (local.set $after_separator (i64.or (i64.extend_i32_u (i32.or (local.get $s0) (i32.shl (local.get $s1) (i32.const 16))))
            (i64.shl (i64.extend_i32_u (i32.or (local.get $s2) (i32.shl (local.get $s3) (i32.const 16)))) (i64.const 32))))
        ;; Backslashes and non-ASCII bytes are rare: only a chunk with one masks them.
        (local.set $backslashes (i64.const 0))
        (local.set $non_ascii (i64.const 0))
        (if (i8x16.bitmask (local.get $rare))
          (then
            (local.set $backslashes (i64.or (i64.extend_i32_u (i32.or (i8x16.bitmask (i8x16.eq (v128.load offset=0 (local.get $chunk)) (i8x16.splat (i32.const 0x5c)))) (i32.shl (i8x16.bitmask (i8x16.eq (v128.load offset=16 (local.get $chunk)) (i8x16.splat (i32.const 0x5c)))) (i32.const 16))))
              (i64.shl (i64.extend_i32_u (i32.or (i8x16.bitmask (i8x16.eq (v128.load offset=32 (local.get $chunk)) (i8x16.splat (i32.const 0x5c)))) (i32.shl (i8x16.bitmask (i8x16.eq (v128.load offset=48 (local.get $chunk)) (i8x16.splat (i32.const 0x5c)))) (i32.const 16)))) (i64.const 32))))
            (local.set $non_ascii (i64.or (i64.extend_i32_u (i32.or (i8x16.bitmask (v128.load offset=0 (local.get $chunk))) (i32.shl (i8x16.bitmask (v128.load offset=16 (local.get $chunk))) (i32.const 16))))
              (i64.shl (i64.extend_i32_u (i32.or (i8x16.bitmask (v128.load offset=32 (local.get $chunk))) (i32.shl (i8x16.bitmask (v128.load offset=48 (local.get $chunk))) (i32.const 16)))) (i64.const 32))))
            (local.set $rare (v128.const i64x2 0 0))))
        ;; The escaped bytes, as $classify_chunk finds them: a quote after an odd run of backslashes does not end a string.
        (local.set $escaped_us (i64.const 0))
        (if (i64.ne (i64.or (local.get $backslashes) (local.get $carry_escaped)) (i64.const 0))
          (then
            (local.set $backslashes (i64.and (local.get $backslashes) (i64.xor (local.get $carry_escaped) (i64.const -1))))
            (local.set $follows_escape (i64.or (i64.shl (local.get $backslashes) (i64.const 1)) (local.get $carry_escaped)))
            (local.set $sum
              (i64.add
                (i64.and (local.get $backslashes)
                  (i64.and (i64.const 0xaaaaaaaaaaaaaaaa) (i64.xor (local.get $follows_escape) (i64.const -1))))
                (local.get $backslashes)))
            (local.set $carry_escaped (i64.extend_i32_u (i64.lt_u (local.get $sum) (local.get $backslashes))))
            (local.set $escaped
              (i64.and
                (i64.xor (i64.const 0x5555555555555555) (i64.shl (local.get $sum) (i64.const 1)))
                (local.get $follows_escape)))
            (local.set $quotes (i64.and (local.get $quotes) (i64.xor (local.get $escaped) (i64.const -1))))
            ;; The u of each \u escape, for the scan, written out as in $classify_chunk: a function for it, called here only
            ;; in chunks with a backslash, made the compaction 2% slower.
            (local.set $us (i64.const 0))
            (local.set $part (i32.const 0))
            (loop $u_parts
              (local.set $us (i64.or (local.get $us)
                (i64.shl
                  (i64.extend_i32_u
                    (i8x16.bitmask (i8x16.eq (v128.load (i32.add (local.get $chunk) (local.get $part))) (i8x16.splat (i32.const 0x75)))))
                  (i64.extend_i32_u (local.get $part)))))
              (local.set $part (i32.add (local.get $part) (i32.const 16)))
              (br_if $u_parts (i32.lt_u (local.get $part) (i32.const 64))))
            (local.set $escaped_us (i64.and (local.get $us) (local.get $escaped)))))
        (local.set $in_string (local.get $quotes))
        (local.set $in_string (i64.xor (local.get $in_string) (i64.shl (local.get $in_string) (i64.const 1))))
        (local.set $in_string (i64.xor (local.get $in_string) (i64.shl (local.get $in_string) (i64.const 2))))
        (local.set $in_string (i64.xor (local.get $in_string) (i64.shl (local.get $in_string) (i64.const 4))))
        (local.set $in_string (i64.xor (local.get $in_string) (i64.shl (local.get $in_string) (i64.const 8))))
        (local.set $in_string (i64.xor (local.get $in_string) (i64.shl (local.get $in_string) (i64.const 16))))
        (local.set $in_string (i64.xor (local.get $in_string) (i64.shl (local.get $in_string) (i64.const 32))))
        (local.set $in_string (i64.xor (local.get $in_string) (local.get $carry_in_string)))
        (local.set $carry_in_string (i64.shr_s (local.get $in_string) (i64.const 63)))
        ;; The separators outside strings (a closing quote is outside, an opening one inside). Whitespace right after one
        ;; is outside strings too, and so is the rest of its run, which no quote interrupts.
        (local.set $after_separator (i64.and (local.get $after_separator) (i64.xor (local.get $in_string) (i64.const -1))))
        ;; The runs of whitespace to drop start right after a separator, or go on from the chunk before: their first bits,
        ;; added to the whitespace, carry through each run and clear it, which leaves the bits to drop.
        (local.set $dropped
          (i64.or
            (i64.and
              (i64.and (local.get $spaces)
                (i64.xor (i64.or (i64.shl (local.get $spaces) (i64.const 1)) (local.get $carry_space)) (i64.const -1)))
              (i64.or (i64.shl (local.get $after_separator) (i64.const 1)) (local.get $carry_separator)))
            (i64.and (local.get $spaces) (local.get $carry_dropped))))
        (local.set $dropped
          (i64.and (local.get $spaces) (i64.xor (i64.add (local.get $spaces) (local.get $dropped)) (i64.const -1))))
        (local.set $carry_space (i64.shr_u (local.get $spaces) (i64.const 63)))
        (local.set $carry_separator (i64.shr_u (local.get $after_separator) (i64.const 63)))
        (local.set $carry_dropped (i64.shr_u (local.get $dropped) (i64.const 63)))
        ;; The scan's events in this chunk: brackets, braces and commas outside strings (the separators there that are
        ;; neither closing quotes nor colons), opening quotes, and escaped u's.
        (if (local.get $scan)
          (then
            ;; Where the chunk's bytes go in the text, for the split points the scan records.
            (global.set $split_out (i32.sub (local.get $out) (global.get $split_text)))
            (global.set $split_kept (i64.xor (local.get $dropped) (i64.const -1)))
            (global.set $split_non_ascii (local.get $non_ascii))
            (local.set $colons
              (i64.or
                (i64.extend_i32_u
                  (i32.or
                    (i8x16.bitmask (i8x16.eq (v128.load offset=0 (local.get $chunk)) (i8x16.splat (i32.const 0x3a))))
                    (i32.shl (i8x16.bitmask (i8x16.eq (v128.load offset=16 (local.get $chunk)) (i8x16.splat (i32.const 0x3a)))) (i32.const 16))))
                (i64.shl
                  (i64.extend_i32_u
                    (i32.or
                      (i8x16.bitmask (i8x16.eq (v128.load offset=32 (local.get $chunk)) (i8x16.splat (i32.const 0x3a))))
                      (i32.shl (i8x16.bitmask (i8x16.eq (v128.load offset=48 (local.get $chunk)) (i8x16.splat (i32.const 0x3a)))) (i32.const 16))))
                  (i64.const 32))))
            (local.set $scan_outcome
              (call $scan_chunk (local.get $chunk)
                (i64.or
                  (i64.or
                    (i64.and (local.get $after_separator) (i64.xor (i64.or (local.get $quotes) (local.get $colons)) (i64.const -1)))
                    (i64.and (local.get $quotes) (local.get $in_string)))
                  (local.get $escaped_us))
                (i64.and (local.get $quotes) (i64.xor (local.get $in_string) (i64.const -1)))
                (local.get $end)))
            (if (local.get $scan_outcome) (then (local.set $scan (i32.const 0))))))
        (if (i64.ne (local.get $non_ascii) (i64.const 0))
          (then
            (local.set $out
              (call $escape_chunk (local.get $chunk) (call $kept_before_end (local.get $dropped) (local.get $chunk) (local.get $end))
                (i32.wrap_i64 (i64.popcnt (local.get $non_ascii))) (local.get $out)))
            (if (i32.lt_s (local.get $out) (i32.const 0)) (then (return (call $compaction_declined)))))
          (else
        (if (i32.and (i64.eqz (local.get $dropped)) (i32.le_u (i32.add (local.get $chunk) (i32.const 64)) (local.get $end)))
          (then
            (v128.store offset=0 (local.get $out) (v128.load offset=0 (local.get $chunk)))
            (v128.store offset=16 (local.get $out) (v128.load offset=16 (local.get $chunk)))
            (v128.store offset=32 (local.get $out) (v128.load offset=32 (local.get $chunk)))
            (v128.store offset=48 (local.get $out) (v128.load offset=48 (local.get $chunk)))
            (local.set $out (i32.add (local.get $out) (i32.const 64))))
          (else
            (local.set $kept (i64.xor (local.get $dropped) (i64.const -1)))
            (if (i32.lt_u (i32.sub (local.get $end) (local.get $chunk)) (i32.const 64))
              (then (local.set $kept (call $kept_before_end (local.get $dropped) (local.get $chunk) (local.get $end)))))
            ;; Each run of kept bytes, 32 at a time: adding its lowest bit to $kept clears the run.
            (block $runs_done
              (loop $runs
                (br_if $runs_done (i64.eqz (local.get $kept)))
                (local.set $run_start (i32.wrap_i64 (i64.ctz (local.get $kept))))
                (local.set $rest
                  (i64.and (local.get $kept) (i64.add (local.get $kept) (i64.and (local.get $kept) (i64.sub (i64.const 0) (local.get $kept))))))
                (local.set $run_length (i32.wrap_i64 (i64.popcnt (i64.xor (local.get $kept) (local.get $rest)))))
                (local.set $copied (i32.const 0))
                (loop $copy
                  (v128.store (i32.add (local.get $out) (local.get $copied))
                    (v128.load (i32.add (i32.add (local.get $chunk) (local.get $run_start)) (local.get $copied))))
                  (v128.store offset=16 (i32.add (local.get $out) (local.get $copied))
                    (v128.load offset=16 (i32.add (i32.add (local.get $chunk) (local.get $run_start)) (local.get $copied))))
                  (local.set $copied (i32.add (local.get $copied) (i32.const 32)))
                  (br_if $copy (i32.lt_u (local.get $copied) (local.get $run_length))))
                (local.set $out (i32.add (local.get $out) (local.get $run_length)))
                (local.set $kept (local.get $rest))
                (br $runs)))))))
        (local.set $chunk (i32.add (local.get $chunk) (i32.const 64)))
        (br $chunks)))
    (global.set $compacted_scan
      (select (i32.const -1) (global.get $flags) (i32.eq (local.get $scan_outcome) (global.get $scan_abandoned))))
    (i32.sub (local.get $out) (local.get $out_start)))

  ;; The escaping of compact's chunks: where the text starts, how many more non-ASCII bytes may be escaped, and where
  ;; the next character starts when the last one ended in the next chunk.
  (global $escape_from (mut i32) (i32.const 0))
  (global $escape_budget (mut i32) (i32.const 0))
  (global $escape_resume_at (mut i32) (i32.const 0))

  ;; Writes the $kept bytes of the chunk at $chunk, which holds $non_ascii non-ASCII bytes, at $out byte by byte, each
  ;; non-ASCII character as \u escapes; a character's continuation bytes (perhaps in the next chunk) are read with its
  ;; first. Returns where writing ends, or -1 where compact declines the text. A function of its own: in compact's loop,
  ;; its locals made every chunk a fifth slower.
  (func $escape_chunk (param $chunk i32) (param $kept i64) (param $non_ascii i32) (param $out i32) (result i32)
    (local $at i32)
    (local $code_point i32)
    (global.set $escape_budget (i32.sub (global.get $escape_budget) (local.get $non_ascii)))
    (if (i32.lt_s (global.get $escape_budget) (i32.const 0)) (then (return (i32.const -1))))
    (block $bytes_done
      (loop $bytes
        (br_if $bytes_done (i64.eqz (local.get $kept)))
        (local.set $at (i32.add (local.get $chunk) (i32.wrap_i64 (i64.ctz (local.get $kept)))))
        (local.set $kept (i64.and (local.get $kept) (i64.sub (local.get $kept) (i64.const 1))))
        (br_if $bytes (i32.lt_u (local.get $at) (global.get $escape_resume_at)))
        (if (i32.lt_u (i32.load8_u (local.get $at)) (i32.const 0x80))
          (then
            (i32.store8 (local.get $out) (i32.load8_u (local.get $at)))
            (local.set $out (i32.add (local.get $out) (i32.const 1)))
            (br $bytes)))
        (if (i32.gt_u (local.get $at) (global.get $escape_from))
          (then
            (if (i32.eq (i32.load8_u (i32.sub (local.get $at) (i32.const 1))) (i32.const 0x5c)) (then (return (i32.const -1))))))
        (local.set $code_point (call $utf8_character (local.get $at)))
        (if (i32.lt_s (local.get $code_point) (i32.const 0)) (then (return (i32.const -1))))
        (global.set $escape_resume_at (i32.add (local.get $at) (global.get $character_length)))
        (if (i32.lt_u (local.get $code_point) (i32.const 0x10000))
          (then (local.set $out (call $write_escape (local.get $out) (local.get $code_point))))
          (else
            (local.set $code_point (i32.sub (local.get $code_point) (i32.const 0x10000)))
            (local.set $out
              (call $write_escape (local.get $out) (i32.add (i32.const 0xd800) (i32.shr_u (local.get $code_point) (i32.const 10)))))
            (local.set $out
              (call $write_escape (local.get $out) (i32.add (i32.const 0xdc00) (i32.and (local.get $code_point) (i32.const 0x3ff)))))))
        (br $bytes)))
    (local.get $out))

  ;; A compaction that declines to make the text: the scan it ran on the way is not finished either.
  (func $compaction_declined (result i32)
    (global.set $compacted_scan (i32.const -1))
    (i32.const -1))

  ;; The bytes of a chunk at $chunk that compact keeps (those not $dropped), before the document's $end.
  (func $kept_before_end (param $dropped i64) (param $chunk i32) (param $end i32) (result i64)
    (local $kept i64)
    (local.set $kept (i64.xor (local.get $dropped) (i64.const -1)))
    (if (result i64) (i32.lt_u (i32.sub (local.get $end) (local.get $chunk)) (i32.const 64))
      (then
        (i64.and (local.get $kept)
          (i64.sub (i64.shl (i64.const 1) (i64.extend_i32_u (i32.sub (local.get $end) (local.get $chunk)))) (i64.const 1))))
      (else (local.get $kept))))

  ;; The code point of the UTF-8 character starting at $at, with its length in $character_length; -1 when the bytes
  ;; there are not a well-formed character (RFC 3629: no overlong forms, surrogates or code points past U+10FFFF). A
  ;; character cut off by the document's end meets the spaces after it, which are no continuation bytes.
  (global $character_length (mut i32) (i32.const 0))
  (func $utf8_character (param $at i32) (result i32)
    (local $lead i32)
    (local $low i32)
    (local $high i32)
    (local.set $lead (i32.load8_u (local.get $at)))
    (local.set $low (i32.const 0x80))
    (local.set $high (i32.const 0xbf))
    (if (i32.lt_u (i32.sub (local.get $lead) (i32.const 0xc2)) (i32.const 0x1e))
      (then
        (if (i32.gt_u (i32.sub (i32.load8_u offset=1 (local.get $at)) (i32.const 0x80)) (i32.const 0x3f)) (then (return (i32.const -1))))
        (global.set $character_length (i32.const 2))
        (return
          (i32.or
            (i32.shl (i32.and (local.get $lead) (i32.const 0x1f)) (i32.const 6))
            (i32.and (i32.load8_u offset=1 (local.get $at)) (i32.const 0x3f))))))
    (if (i32.lt_u (i32.sub (local.get $lead) (i32.const 0xe0)) (i32.const 0x10))
      (then
        (if (i32.eq (local.get $lead) (i32.const 0xe0)) (then (local.set $low (i32.const 0xa0))))
        (if (i32.eq (local.get $lead) (i32.const 0xed)) (then (local.set $high (i32.const 0x9f))))
        (if (i32.or
              (i32.gt_u (i32.sub (i32.load8_u offset=1 (local.get $at)) (local.get $low)) (i32.sub (local.get $high) (local.get $low)))
              (i32.gt_u (i32.sub (i32.load8_u offset=2 (local.get $at)) (i32.const 0x80)) (i32.const 0x3f)))
          (then (return (i32.const -1))))
        (global.set $character_length (i32.const 3))
        (return
          (i32.or
            (i32.or
              (i32.shl (i32.and (local.get $lead) (i32.const 0x0f)) (i32.const 12))
              (i32.shl (i32.and (i32.load8_u offset=1 (local.get $at)) (i32.const 0x3f)) (i32.const 6)))
            (i32.and (i32.load8_u offset=2 (local.get $at)) (i32.const 0x3f))))))
    (if (i32.lt_u (i32.sub (local.get $lead) (i32.const 0xf0)) (i32.const 5))
      (then
        (if (i32.eq (local.get $lead) (i32.const 0xf0)) (then (local.set $low (i32.const 0x90))))
        (if (i32.eq (local.get $lead) (i32.const 0xf4)) (then (local.set $high (i32.const 0x8f))))
        (if (i32.or
              (i32.gt_u (i32.sub (i32.load8_u offset=1 (local.get $at)) (local.get $low)) (i32.sub (local.get $high) (local.get $low)))
              (i32.or
                (i32.gt_u (i32.sub (i32.load8_u offset=2 (local.get $at)) (i32.const 0x80)) (i32.const 0x3f))
                (i32.gt_u (i32.sub (i32.load8_u offset=3 (local.get $at)) (i32.const 0x80)) (i32.const 0x3f))))
          (then (return (i32.const -1))))
        (global.set $character_length (i32.const 4))
        (return
          (i32.or
            (i32.or
              (i32.shl (i32.and (local.get $lead) (i32.const 0x07)) (i32.const 18))
              (i32.shl (i32.and (i32.load8_u offset=1 (local.get $at)) (i32.const 0x3f)) (i32.const 12)))
            (i32.or
              (i32.shl (i32.and (i32.load8_u offset=2 (local.get $at)) (i32.const 0x3f)) (i32.const 6))
              (i32.and (i32.load8_u offset=3 (local.get $at)) (i32.const 0x3f)))))))
    (i32.const -1))

  ;; Writes \u and the four hex digits of a UTF-16 code unit at $out; returns where writing ends.
  (func $write_escape (param $out i32) (param $unit i32) (result i32)
    (i32.store16 (local.get $out) (i32.const 0x755c)) ;; backslash, u
    (i32.store8 offset=2 (local.get $out)
      (i32.load8_u (i32.add (global.get $hex_digits) (i32.shr_u (local.get $unit) (i32.const 12)))))
    (i32.store8 offset=3 (local.get $out)
      (i32.load8_u (i32.add (global.get $hex_digits) (i32.and (i32.shr_u (local.get $unit) (i32.const 8)) (i32.const 15)))))
    (i32.store8 offset=4 (local.get $out)
      (i32.load8_u (i32.add (global.get $hex_digits) (i32.and (i32.shr_u (local.get $unit) (i32.const 4)) (i32.const 15)))))
    (i32.store8 offset=5 (local.get $out)
      (i32.load8_u (i32.add (global.get $hex_digits) (i32.and (local.get $unit) (i32.const 15)))))
    (i32.add (local.get $out) (i32.const 6)))
)
