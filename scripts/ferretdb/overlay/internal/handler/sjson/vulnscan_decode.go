// vulnscan: reading stored documents without a json.Decoder per value.
//
// This file is added to FerretDB v1.24.0's source by the vulnscan build (scripts/stack/ferretdb.ts);
// it is not part of upstream FerretDB. See docs/decisions.md, "Database".

package sjson

import (
	"bytes"
	"encoding/json"
	"sync"
	"unicode/utf8"
)

// Upstream decodes every value of every document it reads with a json.Decoder of its own (a
// buffer filled by copying) and decodes each document's schema, `$s`, anew. A list page of twenty
// 6 KB findings (about 150 strings each) cost FerretDB 22 ms of CPU, half of it in these decoders.
// vsUnmarshal splits objects and arrays in one pass (their values are then decoded by the
// schema, as before), takes a string without escapes as it is, and decodes anything else with
// json.Unmarshal, which refuses trailing data as checkConsumed did; vsSchema keeps decoded
// schemas, which documents of one collection mostly share and nothing changes after decoding.

// vsUnmarshal decodes one JSON value into v.
func vsUnmarshal(data []byte, v any) error {
	switch v := v.(type) {
	case *string:
		if plain, ok := vsPlainString(data); ok {
			*v = plain
			return nil
		}
	case *map[string]json.RawMessage:
		if members, ok := vsObject(data); ok {
			*v = members
			return nil
		}
	case *[]json.RawMessage:
		if elements, ok := vsArray(data); ok {
			*v = elements
			return nil
		}
	}

	return json.Unmarshal(data, v)
}

// vsObject splits a JSON object into its members' raw values in one pass, without copying them;
// ok is false for anything unexpected, which encoding/json then decodes (or reports). The values
// are decoded further by their schema, which checks each of them.
func vsObject(data []byte) (map[string]json.RawMessage, bool) {
	i := vsSkipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil, false
	}

	members := make(map[string]json.RawMessage, 16)

	i = vsSkipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return members, vsSkipSpace(data, i+1) == len(data)
	}

	for {
		if i >= len(data) || data[i] != '"' {
			return nil, false
		}

		end := vsStringEnd(data, i)
		if end < 0 {
			return nil, false
		}

		key, ok := vsPlainString(data[i:end])
		if !ok {
			return nil, false
		}

		if i = vsSkipSpace(data, end); i >= len(data) || data[i] != ':' {
			return nil, false
		}

		i = vsSkipSpace(data, i+1)
		valueEnd := vsValueEnd(data, i)
		if valueEnd < 0 {
			return nil, false
		}

		members[key] = json.RawMessage(data[i:valueEnd])

		if i = vsSkipSpace(data, valueEnd); i >= len(data) {
			return nil, false
		}

		switch data[i] {
		case '}':
			return members, vsSkipSpace(data, i+1) == len(data)
		case ',':
			i = vsSkipSpace(data, i+1)
		default:
			return nil, false
		}
	}
}

// vsArray splits a JSON array into its elements' raw values, as vsObject does an object.
func vsArray(data []byte) ([]json.RawMessage, bool) {
	i := vsSkipSpace(data, 0)
	if i >= len(data) || data[i] != '[' {
		return nil, false
	}

	elements := []json.RawMessage{}

	i = vsSkipSpace(data, i+1)
	if i < len(data) && data[i] == ']' {
		return elements, vsSkipSpace(data, i+1) == len(data)
	}

	for {
		end := vsValueEnd(data, i)
		if end < 0 {
			return nil, false
		}

		elements = append(elements, json.RawMessage(data[i:end]))

		if i = vsSkipSpace(data, end); i >= len(data) {
			return nil, false
		}

		switch data[i] {
		case ']':
			return elements, vsSkipSpace(data, i+1) == len(data)
		case ',':
			i = vsSkipSpace(data, i+1)
		default:
			return nil, false
		}
	}
}

// vsSkipSpace returns the index of the first byte at or after i that is not JSON white space.
func vsSkipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}

	return i
}

// vsStringEnd returns the index just past the JSON string whose opening quote is at i, or -1.
func vsStringEnd(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}

	return -1
}

// vsValueEnd returns the index just past the JSON value that starts at i, or -1.
func vsValueEnd(data []byte, i int) int {
	if i >= len(data) {
		return -1
	}

	switch data[i] {
	case '"':
		return vsStringEnd(data, i)
	case '{', '[':
		depth := 0

		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				end := vsStringEnd(data, j)
				if end < 0 {
					return -1
				}

				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}

		return -1
	default:
		j := i

	literal:
		for ; j < len(data); j++ {
			switch data[j] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				break literal
			}
		}

		if j == i {
			return -1
		}

		return j
	}
}

// vsPlainString returns a JSON string's text when it has no escape and is valid UTF-8: then the
// bytes between the quotes are the text, exactly as json.Unmarshal would give it.
func vsPlainString(data []byte) (string, bool) {
	if len(data) < 2 || data[0] != '"' || data[len(data)-1] != '"' {
		return "", false
	}

	inner := data[1 : len(data)-1]
	for _, c := range inner {
		if c == '\\' || c == '"' || c < 0x20 {
			return "", false
		}
	}

	if !utf8.Valid(inner) {
		return "", false
	}

	return string(inner), true
}

// vsSchemaCacheMax bounds the schemas kept: a few KB of text and its decoded form each.
const vsSchemaCacheMax = 512

var vsSchemas struct {
	sync.RWMutex
	m map[string]*schema
}

// vsSchema decodes a document's `$s`, or returns the one decoded from the same text before.
// Callers only read the schema.
func vsSchema(raw []byte) (*schema, error) {
	vsSchemas.RLock()
	cached := vsSchemas.m[string(raw)]
	vsSchemas.RUnlock()

	if cached != nil {
		return cached, nil
	}

	var sch schema
	r := bytes.NewReader(raw)
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()

	if err := dec.Decode(&sch); err != nil {
		return nil, err
	}

	if err := checkConsumed(dec, r); err != nil {
		return nil, err
	}

	vsSchemas.Lock()
	if vsSchemas.m == nil || len(vsSchemas.m) >= vsSchemaCacheMax {
		vsSchemas.m = make(map[string]*schema, vsSchemaCacheMax)
	}
	vsSchemas.m[string(raw)] = &sch
	vsSchemas.Unlock()

	return &sch, nil
}
