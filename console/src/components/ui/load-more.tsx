import { Button } from '@mantine/core';
import { useEffect, useEffectEvent, useRef } from 'react';

/**
 * More rows load on scroll (spec 001 §4): when this comes into view it asks for the next page.
 * The button stays for keyboards and browsers without IntersectionObserver.
 */
export function LoadMore({ onLoad, loading }: { onLoad: () => void; loading: boolean }) {
  const ref = useRef<HTMLButtonElement>(null);
  // The observer calls the latest onLoad without being set up again for each new one.
  const load = useEffectEvent(onLoad);

  useEffect(() => {
    const node = ref.current;
    if (!node || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) load();
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
