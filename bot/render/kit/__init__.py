"""The drawing kit every game's renderer shares: the renderer contract and the text-only renderer
(`generic`), the fixed palette and fast PNG encoding (`palette`, `paletted`), fonts (`fonts`, DejaVu Sans
Condensed vendored here), the phone-width layout (`phone`), rating charts (`chart`), and the picture workers
that draw off the event loop (`pool`). Nothing here knows a particular game."""
