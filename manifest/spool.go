package manifest

import (
	"errors"
	"io"
	"os"
)

// spool is a stream that cannot seek (a pipe on stdin) made seekable
// backwards: what it reads from src it also writes to a temporary file,
// and after a Seek it reads from the file up to where src was left, then
// from src again. The reader's fallback to the whole-document path then
// re-reads a YAML List from the file rather than from bytes held in
// memory meanwhile.
type spool struct {
	src     io.Reader
	f       *os.File
	written int64 // bytes of src copied to f
	pos     int64 // the reader's position
}

// newSpool spools src through a new temporary file; close removes it.
func newSpool(src io.Reader) (*spool, error) {
	f, err := os.CreateTemp("", "schedkit-stdin-*")
	if err != nil {
		return nil, err
	}
	return &spool{src: src, f: f}, nil
}

func (s *spool) Read(p []byte) (int, error) {
	if s.pos < s.written {
		if rest := s.written - s.pos; int64(len(p)) > rest {
			p = p[:rest]
		}
		n, err := s.f.ReadAt(p, s.pos)
		s.pos += int64(n)
		if err == io.EOF && n > 0 {
			err = nil
		}
		return n, err
	}
	n, err := s.src.Read(p)
	if n > 0 {
		if _, werr := s.f.WriteAt(p[:n], s.written); werr != nil {
			return 0, werr
		}
		s.written += int64(n)
		s.pos = s.written
	}
	return n, err
}

// Seek moves within what was read so far (io.SeekStart or
// io.SeekCurrent).
func (s *spool) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += s.pos
	default:
		return s.pos, errors.New("spool: seek from the end")
	}
	if offset < 0 || offset > s.written {
		return s.pos, errors.New("spool: seek outside what was read")
	}
	s.pos = offset
	return offset, nil
}

func (s *spool) close() {
	name := s.f.Name()
	s.f.Close()
	os.Remove(name)
}
