// One import point for the view library (vendored preact + htm; see static/vendor/README.md).
import { h, render, Fragment } from 'preact';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import htm from 'htm';

export const html = htm.bind(h);
export { h, render, Fragment, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState };
