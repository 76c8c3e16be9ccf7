import { Button } from '@mantine/core';
import { useEffect, useRef } from 'react';

/**
 * More rows load on scroll (spec 001 §4): when this comes into view it asks for the next page.
 * The button stays for keyboards and browsers without IntersectionObserver.
 */
export function LoadMore({ onLoad, loading }: { onLoad: () => void; loading: boolean }) {
  const ref = useRef<HTMLButtonElement>(null);
  const latest = useRef(onLoad);
  latest.current = onLoad;

  useEffect(() => {
    const node = ref.current;
    if (!node || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) latest.current();
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, []);

  return (
    <Button ref={ref} variant="light" onClick={onLoad} loading={loading}>
      Load more
    </Button>
  );
}
