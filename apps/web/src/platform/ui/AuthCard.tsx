import { Box, Card, Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo } from './Logo';

/** The card-centred frame of every public page. */
export function AuthCard({
  title,
  subtitle,
  icon,
  children,
  footer,
}: {
  title: string;
  subtitle?: ReactNode;
  icon?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <Box className="auth-bg" px="md" py={{ base: 'lg', sm: 48 }}>
      <Center>
        <Stack w="100%" maw={440} gap="lg">
          <Center>
            <Box
              component={Link}
              to="/"
              aria-label="Home"
              style={{ textDecoration: 'none', borderRadius: 8 }}
            >
              <Logo />
            </Box>
          </Center>
          <Card component="main" withBorder shadow="sm" p={{ base: 'lg', sm: 32 }}>
            <Stack gap="lg">
              <Stack gap={6} align={icon ? 'center' : 'stretch'} ta={icon ? 'center' : undefined}>
                {icon && (
                  <ThemeIcon size={52} radius="xl" variant="light" mb={4}>
                    {icon}
                  </ThemeIcon>
                )}
                <Title order={1} fz={26}>
                  {title}
                </Title>
                {subtitle && (
                  <Text c="dimmed" size="sm" component="div">
                    {subtitle}
                  </Text>
                )}
              </Stack>
              {children}
            </Stack>
          </Card>
          {footer && (
            <Text ta="center" size="sm" c="dimmed" component="div">
              {footer}
            </Text>
          )}
        </Stack>
      </Center>
    </Box>
  );
}
